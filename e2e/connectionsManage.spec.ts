// Managing connections (issue 23), in Chromium against the real host with a REAL keychain (a throwaway
// gnome-keyring in the host's own dbus-run-session) and a real authorization server (oidc-provider on 127.0.0.1),
// by keyboard only: an OAuth client is set up in the view (no oauth-providers.json, no restart; a bad issuer refused
// with the field focused) and connected with at once; Test refreshes its tokens, and after the user revokes the app
// at the provider Test fails and says why. An API key shows only its last 4 characters, Test asks a local stand-in
// for the provider's API, and Rotate (paste, confirm) replaces it in place with the new last 4 shown.
import type { BrowserContext, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeUpstream, type FakeUpstream } from '../test/vault/fakeUpstream';
import { expect, test } from './fixtures';
import { freePort, type HostProcess } from './hostProcess';
import { startOidcServerProcess, type OidcServerProcess } from './oidcServerProcess';
import { startHostInPrivateKeyring, stopPrivateKeyringHost } from './privateKeyringHost';

const FIRST_KEY = `e2e-first-${randomBytes(18).toString('base64url')}`;
const SECOND_KEY = `e2e-second-${randomBytes(18).toString('base64url')}`;
const GITHUB_SECRET = `e2e-gh-secret-${randomBytes(18).toString('base64url')}`;

async function pageText(page: Page): Promise<string> {
  return page.evaluate(() => [document.documentElement.outerHTML, ...[...document.querySelectorAll('input')].map((el) => el.value)].join('\n'));
}

/** Types into the focused field after clearing it, as a person with a keyboard would. */
async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

test.describe('managing connections', () => {
  test.setTimeout(90_000);
  let oidc: OidcServerProcess;
  let upstream: FakeUpstream;
  let host: HostProcess;
  let tmp: string;
  let context: BrowserContext;
  let page: Page;

  test.beforeEach(async ({ webBrowser }) => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'omni-e2e-connmanage-')));
    mkdirSync(join(tmp, 'home'));
    mkdirSync(join(tmp, 'user'));
    [oidc, upstream, host] = await Promise.all([startOidcServerProcess({}), startFakeUpstream(), freePort().then((port) => startHostInPrivateKeyring(port, join(tmp, 'home'), join(tmp, 'user')))]);
    context = await (await webBrowser()).newContext({ viewport: { width: 1000, height: 700 }, colorScheme: test.info().title.includes('dark') ? 'dark' : 'light' });
    page = await context.newPage();
    await page.goto(host.url);
    const tab = page.getByRole('tab', { name: 'Connections' });
    await tab.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('connections-view')).toHaveAttribute('data-keychain', 'available');
  });

  test.afterEach(async () => {
    const info = test.info();
    if (info.status !== info.expectedStatus) await info.attach('host-output', { body: host.output() });
    await context?.close();
    await stopPrivateKeyringHost(host);
    await Promise.all([oidc.stop(), upstream.close()]);
    rmSync(tmp, { recursive: true, force: true });
  });

  test('an OAuth client set up in the view connects at once; Test works, then fails once access is revoked at the provider (dark)', async () => {
    const panel = page.getByTestId('oauth-clients');
    const connect = page.getByTestId('connect-oauth');
    // Nothing to sign in to yet: the provider select offers only the built-in, unconfigured ones.
    await expect(connect.getByLabel('Provider').locator('option', { hasText: 'Test IdP' })).toHaveCount(0);

    await panel.getByRole('button', { name: 'Add an OAuth client' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByTestId('oauth-client-form');
    await expect(form.getByLabel('Name')).toBeFocused();
    await page.keyboard.type('Test IdP');
    await page.keyboard.press('Tab');
    // A mistake first: plain http to another machine is refused, and the issuer field gets the focus back.
    await page.keyboard.type('http://sso.example.com');
    await form.getByLabel('Client ID').focus();
    await page.keyboard.type(oidc.clientId);
    await form.getByLabel('API hosts the token may be sent to').focus();
    await page.keyboard.type('127.0.0.1');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('oauth-client-error')).toContainText('issuer: the issuer must use https:// (plain http only on this machine: 127.0.0.1 or localhost)');
    await expect(form.getByLabel('Issuer URL')).toBeFocused();
    await expect(form.getByLabel('Issuer URL')).toHaveAttribute('aria-invalid', 'true');
    await form.screenshot({ path: test.info().outputPath('oauth-client-form-dark-1000x700.png') });
    await retype(page, oidc.issuer);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('oauth-clients-message')).toHaveText('Saved Test IdP: connect it under "Connect an account".');
    const row = page.getByTestId('oauth-client-row').filter({ hasText: 'Test IdP' });
    await expect(row).toContainText('http://127.0.0.1/callback');
    await expect(panel.getByRole('button', { name: 'Add an OAuth client' })).toBeFocused();

    // No restart: it is offered at once, and the device flow runs against the provider.
    const select = connect.getByLabel('Provider');
    await select.focus();
    await select.selectOption({ label: 'Test IdP' });
    await connect.getByLabel('Scopes').focus();
    await page.keyboard.type('repo');
    await connect.getByRole('button', { name: 'Connect with a code' }).focus();
    await page.keyboard.press('Enter');
    const flow = page.getByTestId('flow-panel');
    const userCode = (await flow.getByTestId('flow-user-code').textContent())!.trim();
    const provider = await context.newPage();
    await provider.goto((await flow.getByTestId('flow-verification-link').textContent())!);
    await provider.locator('input[name="user_code"]').fill(userCode);
    await provider.locator('input[name="user_code"]').press('Enter');
    await provider.locator('button[autofocus], button[type="submit"]').first().press('Enter');
    await expect(provider.locator('body')).toContainText(/success/i);
    await provider.close();
    await expect(flow.getByTestId('flow-status')).toHaveText('Connected.');

    const connection = page.getByTestId('connection-row').filter({ hasText: 'Test IdP' });
    await expect(connection.getByTestId('connection-status')).toHaveText('connected');
    const testButton = connection.getByRole('button', { name: 'Test Test IdP' });
    await testButton.focus();
    await page.keyboard.press('Enter');
    const check = connection.getByTestId('connection-check');
    await expect(check).toHaveAttribute('data-outcome', 'ok');
    await expect(check).toContainText('Works Test IdP accepted the refresh token and issued a new access token');
    await expect(check.locator('time')).toHaveText(/^\(at .+\)$/);

    // The user revokes the app at the provider; the next Test finds out and says so.
    await oidc.revokeAll();
    await testButton.focus();
    await page.keyboard.press('Enter');
    await expect(check).toHaveAttribute('data-outcome', 'failed');
    await expect(check).toContainText("Failed Test IdP no longer accepts this connection's refresh token: access was revoked at Test IdP");
    await expect(check).toHaveAttribute('role', 'alert');
    await expect(connection.getByTestId('connection-status')).toHaveText('revoked');
    await page.screenshot({ path: test.info().outputPath('connections-manage-dark-1000x700.png'), fullPage: true });
  });

  test('an API key shows its last 4 characters, passes Test, and is rotated in place by keyboard (light)', async () => {
    upstream.accept(FIRST_KEY, 'first');
    const form = page.getByTestId('add-api-key');
    await form.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible endpoint' });
    await form.getByLabel('Base URL').focus();
    await page.keyboard.type(`${upstream.origin}/v1`);
    await page.keyboard.press('Tab');
    await page.keyboard.type(FIRST_KEY);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Local models');
    await page.keyboard.press('Enter');
    const row = page.getByTestId('connection-row').filter({ hasText: 'Local models' });
    await expect(row.getByTestId('connection-key-hint')).toHaveText(`…${FIRST_KEY.slice(-4)}`);

    const testButton = row.getByRole('button', { name: 'Test Local models' });
    await testButton.focus();
    await page.keyboard.press('Enter');
    await expect(row.getByTestId('connection-check')).toHaveAttribute('data-outcome', 'ok');
    await expect(row.getByTestId('connection-check')).toContainText('accepted the key (GET /v1/models answered 200)');

    // Rotate: an empty key is refused with what to do; then paste, confirm, and the new last 4 shows.
    const rotate = row.getByRole('button', { name: 'Rotate the key of Local models' });
    await rotate.focus();
    await page.keyboard.press('Enter');
    const keyField = row.getByLabel('New API key');
    await expect(keyField).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(row.getByTestId('rotate-error')).toHaveText('The new API key is empty: paste the whole new key.');
    await page.keyboard.type(SECOND_KEY);
    await page.keyboard.press('Enter');
    await expect(row.getByTestId('rotate-confirm-text')).toContainText('Replace the key of Local models?');
    await expect(row.getByRole('button', { name: 'Replace the key' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('connections-notice')).toContainText('Rotated Local models: the new key is in the OS keychain');
    await expect(row.getByTestId('connection-key-hint')).toHaveText(`…${SECOND_KEY.slice(-4)}`);
    await expect(rotate).toBeFocused();
    // Same connection: the row is still the only one.
    await expect(page.getByTestId('connection-row')).toHaveCount(1);

    // The stand-in does not know the new key yet: Test says the provider refused it; once it does, Test passes.
    await testButton.focus();
    await page.keyboard.press('Enter');
    await expect(row.getByTestId('connection-check')).toHaveAttribute('data-outcome', 'failed');
    await expect(row.getByTestId('connection-check')).toContainText('refused the key (HTTP 401)');
    upstream.accept(SECOND_KEY, 'second');
    await page.keyboard.press('Enter');
    await expect(row.getByTestId('connection-check')).toHaveAttribute('data-outcome', 'ok');
    const text = await pageText(page);
    expect(text.includes(FIRST_KEY) || text.includes(SECOND_KEY), 'a key is in the page').toBe(false);
    await page.screenshot({ path: test.info().outputPath('connections-manage-light-1000x700.png'), fullPage: true });
  });

  test("GitHub's client id set in the view by keyboard makes its Connect available at once, no restart (light)", async () => {
    const connect = page.getByTestId('connect-oauth');
    await expect(connect.getByLabel('Provider')).toHaveValue('github');
    await expect(connect.getByRole('button', { name: 'Connect with a code' })).toHaveCount(0);
    const form = page.getByTestId('builtin-client-form');
    await expect(form.getByTestId('builtin-client-redirect')).toHaveText('http://127.0.0.1/callback');
    await expect(form).toContainText('oauth-providers.json');
    // A mistake first: saved empty, the host's refusal shows under the field, which gets the focus back.
    await form.getByLabel('Client ID').focus();
    await page.keyboard.press('Enter');
    await expect(form.getByTestId('builtin-client-error')).toContainText('the client id is empty');
    await expect(form.getByLabel('Client ID')).toBeFocused();
    await expect(form.getByLabel('Client ID')).toHaveAttribute('aria-invalid', 'true');
    await page.keyboard.type('Iv1.e2eclient0001');
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Client secret (optional)')).toBeFocused();
    await page.keyboard.type(GITHUB_SECRET);
    await page.keyboard.press('Tab');
    await expect(form.getByRole('button', { name: 'Save' })).toBeFocused();
    await page.keyboard.press('Enter');

    // Applied at once: the form gives way to GitHub's Connect controls (nothing is sent to github.com here).
    await expect(form).toHaveCount(0);
    await expect(connect.getByRole('button', { name: 'Connect with a code' })).toBeEnabled();
    await expect(connect.getByRole('button', { name: 'Connect in the browser' })).toBeEnabled();
    await expect(connect.getByLabel('Provider').locator('option', { hasText: 'GitHub' })).toHaveText('GitHub');
    expect((await pageText(page)).includes(GITHUB_SECRET), 'the client secret is in the page').toBe(false);
    expect(host.output().includes(GITHUB_SECRET), 'the client secret is in the host output').toBe(false);
  });
});
