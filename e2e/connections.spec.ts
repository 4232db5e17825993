// The Connections view end to end, in Chromium against the real host: with a REAL keychain (a throwaway
// gnome-keyring in the host's own dbus-run-session) an API key is added and never appears in the page or the
// database, an OIDC account is connected through the device flow against a real authorization server (oidc-provider
// on 127.0.0.1, its pages driven in a second tab the way a person would), and both are disconnected. With the
// keychain off, the view says so and nothing can be added.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { freePort, startHost, stopHost, type HostProcess } from './hostProcess';
import type { OidcTestServerOptions } from '../test/vault/oidcTestServer';
import { startOidcServerProcess, type OidcServerProcess } from './oidcServerProcess';
import { startHostInPrivateKeyring, stopPrivateKeyringHost } from './privateKeyringHost';

// Fresh each run (no key-shaped literal in the source), long and random, so finding it anywhere is unambiguous.
const CANARY_KEY = `e2e-canary-${randomBytes(18).toString('base64url')}`;

interface Stage {
  tmp: string;
  home: string;
  context: BrowserContext;
  page: Page;
}

/** Opens the app in a fresh context of the worker's Chromium (fixtures.ts), on the Connections tab. */
async function openApp(browser: Browser, url: string, tmp: string, home: string): Promise<Stage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('tab', { name: 'Connections' }).click();
  return { tmp, home, context, page };
}

function freshDirs(): { tmp: string; home: string; userHome: string } {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'omni-e2e-conn-')));
  const home = join(tmp, 'home');
  const userHome = join(tmp, 'user');
  mkdirSync(home);
  mkdirSync(userHome);
  return { tmp, home, userHome };
}

/** Everything the page holds as text: markup, rendered text, and the live values of every form field. */
async function everythingInPage(page: Page): Promise<string> {
  return page.evaluate(() => {
    const values = [...document.querySelectorAll('input, textarea, select')].map((el) => (el as HTMLInputElement).value);
    return [document.documentElement.outerHTML, document.body.innerText, ...values, JSON.stringify(localStorage), JSON.stringify(sessionStorage)].join('\n');
  });
}

test.describe('Connections with a real keychain', () => {
  test.setTimeout(90_000);
  let oidc: OidcServerProcess;
  let host: HostProcess;
  let stage: Stage;

  test.beforeEach(async ({ webBrowser }) => {
    // A test can ask for another server (a short code lifetime, slow_down answers) with an "oidc" annotation.
    const custom = test.info().annotations.find((a) => a.type === 'oidc')?.description;
    oidc = await startOidcServerProcess(custom ? (JSON.parse(custom) as OidcTestServerOptions) : {});
    const dirs = freshDirs();
    // The app's registration with the test server: a public native client, discovered by issuer.
    writeFileSync(
      join(dirs.home, 'oauth-providers.json'),
      JSON.stringify({ oidc: [{ id: 'testidp', name: 'Test IdP', issuer: oidc.issuer, clientId: oidc.clientId, apiDomains: ['127.0.0.1'], flows: ['device', 'pkce'] }] }),
    );
    host = await startHostInPrivateKeyring(await freePort(), dirs.home, dirs.userHome);
    stage = await openApp(await webBrowser(), host.url, dirs.tmp, dirs.home);
  });

  test.afterEach(async () => {
    const testInfo = test.info();
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('host-output', { body: host.output() });
    await stage?.context.close();
    await stopPrivateKeyringHost(host);
    await oidc.stop();
    rmSync(stage.tmp, { recursive: true, force: true });
  });

  test('add an API key, connect through the device flow, disconnect both', async () => {
    const { page, home } = stage;
    const view = page.getByTestId('connections-view');
    await expect(view).toHaveAttribute('data-keychain', 'available');
    await expect(page.getByTestId('keychain-banner')).toHaveCount(0);

    // An OpenAI-compatible endpoint (a local Ollama): base URL, key, label.
    const form = page.getByTestId('add-api-key');
    await form.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible endpoint' });
    await form.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1');
    await form.getByLabel('API key').fill(CANARY_KEY);
    await form.getByLabel('Label (optional)').fill('Local Ollama');
    await form.getByRole('button', { name: 'Add API key' }).click();
    await expect(page.getByTestId('add-api-key-result')).toContainText('will not be shown again');
    const keyRow = page.getByTestId('connection-row').filter({ hasText: 'Local Ollama' });
    await expect(keyRow.getByTestId('connection-status')).toHaveText('connected');
    await expect(keyRow.getByTestId('connection-scopes')).toHaveText('api');
    await expect(keyRow.getByTestId('connection-expiry')).toHaveText('does not expire');
    await expect(keyRow).toContainText('http://127.0.0.1:11434/v1');
    await expect(form.getByLabel('API key')).toHaveValue('');
    // The key is nowhere in the page (markup, text, field values, storage), nor in the database on disk.
    expect(await everythingInPage(page)).not.toContain(CANARY_KEY);
    for (const file of ['sessions.db', 'sessions.db-wal']) {
      const path = join(home, 'memory', file);
      if (existsSync(path)) expect(readFileSync(path).includes(Buffer.from(CANARY_KEY)), `${file} holds the key`).toBe(false);
    }

    // Device flow: the code is shown big; the user opens the link in another tab, types the code, approves.
    const connect = page.getByTestId('connect-oauth');
    await connect.getByLabel('Provider').selectOption({ label: 'Test IdP' });
    await connect.getByLabel('Scopes').fill('repo');
    await connect.getByRole('button', { name: 'Connect with a code' }).click();
    const panel = page.getByTestId('flow-panel');
    const userCode = (await panel.getByTestId('flow-user-code').textContent())!.trim();
    expect(userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    await expect(panel.getByTestId('flow-countdown')).toContainText(/Expires in \d+:\d\d/);
    await expect(panel.getByTestId('flow-status')).toContainText('Waiting for you to enter the code');
    const verificationUri = await panel.getByTestId('flow-verification-link').textContent();
    expect(verificationUri).toBe(`${oidc.issuer}/device`);

    const provider = await page.context().newPage();
    await provider.goto(verificationUri!);
    await provider.locator('input[name="user_code"]').fill(userCode);
    await provider.locator('input[name="user_code"]').press('Enter');
    // oidc-provider's confirmation page ("Continue" / "Abort"): continue.
    await provider.locator('button[autofocus], button[type="submit"]').first().click();
    await expect(provider.locator('body')).toContainText(/success/i);
    await provider.close();

    await expect(panel.getByTestId('flow-status')).toHaveText('Connected.');
    const oauthRow = page.getByTestId('connection-row').filter({ hasText: 'Test IdP' });
    await expect(oauthRow.getByTestId('connection-status')).toHaveText('connected');
    await expect(oauthRow.getByTestId('connection-scopes')).toContainText('repo');
    // A live, relative expiry (the server issues one-hour access tokens).
    await expect(oauthRow.getByTestId('connection-expiry')).toHaveText(/^expires in (59 min|1 h)$/);
    await expect(oauthRow.getByTestId('connection-handles')).toHaveText('no agent holds a handle');
    // Refresh rotates the tokens at the provider.
    await oauthRow.getByRole('button', { name: 'Refresh' }).click();
    await expect(oauthRow.getByTestId('connection-message')).toHaveText('Refreshed.');

    // Disconnect: revoked at the provider (it has an RFC 7009 endpoint), and the view says so.
    await oauthRow.getByRole('button', { name: 'Disconnect' }).click();
    await expect(page.getByTestId('connections-notice')).toContainText('Test IdP confirmed the revocation');
    await expect(page.getByTestId('connection-row').filter({ hasText: 'Test IdP' })).toHaveCount(0);

    await keyRow.getByRole('button', { name: 'Disconnect' }).click();
    await expect(page.getByTestId('connections-notice')).toContainText('the key was deleted from the keychain');
    await expect(page.getByTestId('connection-row')).toHaveCount(0);
    await expect(view).toContainText('No connections yet.');
    expect(await everythingInPage(page)).not.toContain(CANARY_KEY);
  });

  test('connect in the browser (PKCE): the sign-in link opens the provider, the loopback answer connects', async () => {
    const { page } = stage;
    const connect = page.getByTestId('connect-oauth');
    await connect.getByLabel('Provider').selectOption({ label: 'Test IdP' });
    await connect.getByLabel('Scopes').fill('repo read:user');
    await connect.getByRole('button', { name: 'Connect in the browser' }).click();
    const link = page.getByTestId('flow-authorize-link');
    await expect(link).toHaveAttribute('href', new RegExp(`^${oidc.issuer}/auth\\?`));
    // The link opens a tab (in Electron: the system browser); the provider signs in and redirects to the app's
    // loopback listener, which takes the code.
    const [signIn] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await signIn.waitForLoadState();
    await expect(page.getByTestId('flow-status')).toHaveText('Connected.');
    await signIn.close();
    const row = page.getByTestId('connection-row').filter({ hasText: 'Test IdP' });
    await expect(row.getByTestId('connection-status')).toHaveText('connected');
    await expect(row.getByTestId('connection-scopes')).toContainText('read:user');
  });

  test(
    'a device code answered with slow_down and left to run out: the view says both',
    { annotation: { type: 'oidc', description: JSON.stringify({ slowDownFirstPolls: 1, deviceCodeTtlS: 8 }) } },
    async () => {
      const { page } = stage;
      const connect = page.getByTestId('connect-oauth');
      await connect.getByLabel('Provider').selectOption({ label: 'Test IdP' });
      await connect.getByRole('button', { name: 'Connect with a code' }).click();
      const panel = page.getByTestId('flow-panel');
      await expect(panel.getByTestId('flow-countdown')).toHaveText(/Expires in 0:0[5-8]/);
      // RFC 8628: slow_down adds 5 s to the 1 s interval.
      await expect(panel.getByTestId('flow-status')).toHaveText('The provider asked to slow down: checking every 6 s.');
      await expect(panel.getByTestId('flow-status')).toHaveText('The code expired before it was approved. Start again for a new code.', { timeout: 20_000 });
      await expect(panel.getByTestId('flow-countdown')).toHaveCount(0);
      await expect(panel.getByTestId('flow-status')).toHaveAttribute('role', 'alert');
      // Not only the local countdown: the host's next poll got expired_token and ended the flow.
      await expect(panel).toHaveAttribute('data-flow-state', 'failed', { timeout: 20_000 });
      await expect(page.getByTestId('connection-row')).toHaveCount(0);
    },
  );

  test('a denied device code is reported as denied, and no connection appears', async () => {
    const { page } = stage;
    await oidc.setDecision('deny');
    const connect = page.getByTestId('connect-oauth');
    await connect.getByLabel('Provider').selectOption({ label: 'Test IdP' });
    await connect.getByRole('button', { name: 'Connect with a code' }).click();
    const panel = page.getByTestId('flow-panel');
    const provider = await page.context().newPage();
    await provider.goto((await panel.getByTestId('flow-verification-link').getAttribute('href'))!);
    await provider.locator('button[autofocus], button[type="submit"]').first().click();
    // Closed only once the provider has shown its final page: the denial is recorded at the end of a redirect chain
    // (form → interaction → resume), and closing the tab earlier can cut it off.
    await expect(provider.locator('body')).toContainText(/request was interrupted/i);
    await provider.close();
    await expect(panel.getByTestId('flow-status')).toHaveText(/denied at the provider/);
    await expect(panel).toHaveAttribute('data-flow-state', 'failed');
    await expect(page.getByTestId('connection-row')).toHaveCount(0);
    // The buttons are back for another try.
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(connect.getByRole('button', { name: 'Connect with a code' })).toBeEnabled();
  });
});

test.describe('Connections without a keychain', () => {
  let host: HostProcess;
  let stage: Stage;

  test.afterEach(async () => {
    await stage?.context.close();
    await stopHost(host, false);
    rmSync(stage.tmp, { recursive: true, force: true });
  });

  test('the view says credentials are off and adding is disabled', async ({ webBrowser }) => {
    const { tmp, home, userHome } = freshDirs();
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: userHome, OMNI_KEYCHAIN: 'off' };
    host = await startHost(await freePort(), home, env);
    stage = await openApp(await webBrowser(), host.url, tmp, home);
    const { page } = stage;
    // The tab is reachable by keyboard like the others: arrows move along the tab list.
    await page.getByRole('tab', { name: 'Connections' }).press('ArrowLeft');
    await expect(page.getByRole('tab', { name: 'Ledger' })).toBeFocused();
    await page.getByRole('tab', { name: 'Ledger' }).press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Connections' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('connections-view')).toBeVisible();
    await expect(page.getByTestId('connections-view')).toHaveAttribute('data-keychain', 'unavailable');
    const banner = page.getByTestId('keychain-banner');
    await expect(banner).toContainText('Credentials are off');
    await expect(banner).toContainText('OMNI_KEYCHAIN');
    const form = page.getByTestId('add-api-key');
    await expect(form.getByLabel('API key')).toBeDisabled();
    await expect(form.getByRole('button', { name: 'Add API key' })).toBeDisabled();
    await expect(page.getByTestId('connection-row')).toHaveCount(0);
  });
});
