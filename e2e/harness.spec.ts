// A Claude Code session end to end, in Chromium against the real host and the real Claude Code CLI: the Anthropic
// connection is added in the Connections view (a REAL keychain: a throwaway gnome-keyring in the host's own
// dbus-run-session), the session's TUI runs in a terminal card and talks to a local mock of Anthropic's API through
// the credential proxy; the host is restarted, Resume relaunches the CLI with the stored conversation key, and the
// mock receives the earlier conversation with the new message. The real key is never in the page.
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationOf, lastUserText, startMockProvider, type MockProvider } from '../test/mockProviders';
import { claude } from '../test/harness/realClis';
import { createSession, saveScreenshot, sessionItem, terminalText, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';
import { startHarnessHost } from './harnessHostProcess';
import { freePort, type HostProcess } from './hostProcess';
import { stopPrivateKeyringHost } from './privateKeyringHost';

const REAL_KEY = `sk-ant-e2e-${randomBytes(18).toString('base64url')}`;

async function typeInto(page: Page, card: Locator, message: string): Promise<void> {
  await card.locator('.terminal-screen').click();
  await page.keyboard.type(message);
  // Text and Enter apart: one burst ending in Enter is a paste to a TUI, not a submit.
  await expect.poll(() => terminalText(card), { timeout: 20_000 }).toContain(message);
  await page.keyboard.press('Enter');
}

/**
 * The status bar says Connected. (appDriver's expectConnected matches any `connection-status`, and once a connection
 * is listed the Connections view has one of its own.)
 */
async function expectConnected(page: Page): Promise<void> {
  // Generous: the first render on a loaded 2-core machine (eight test suites at once) has taken over 15 s.
  await expect(page.locator('footer.status-bar [data-testid="connection-status"]')).toHaveAttribute('data-status', 'connected', { timeout: 45_000 });
}

function turnWith(mock: MockProvider, message: string) {
  return mock.turns().find((request) => lastUserText(request) === message);
}

test.describe('Claude Code sessions', () => {
  test.skip(!existsSync(claude), 'run `node scripts/install-harness-clis.mjs` first (the real Claude Code CLI)');
  test.setTimeout(180_000);
  let mock: MockProvider;
  let host: HostProcess | undefined;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let tmp: string;

  test.beforeEach(async ({ webBrowser }) => {
    browser = await webBrowser();
    context = undefined;
    mock = await startMockProvider('anthropic');
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'omni-e2e-harness-')));
  });

  test.afterEach(async () => {
    const info = test.info();
    if (host && info.status !== info.expectedStatus) await info.attach('host-output', { body: host.output() });
    await context?.close();
    if (host) await stopPrivateKeyringHost(host);
    await mock.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A host on a fresh home with the mock behind its Anthropic provider, the app open, Anthropic connected. */
  async function openConnectedApp(): Promise<{ page: Page; home: string; userHome: string; workspace: string; port: number; env: Record<string, string> }> {
    const home = join(tmp, 'home');
    const userHome = join(tmp, 'user');
    const workspace = join(tmp, 'project');
    for (const dir of [home, userHome, workspace]) mkdirSync(dir);
    const port = await freePort();
    const env = { OMNI_CLAUDE_CODE_PATH: claude };
    host = await startHarnessHost(port, home, userHome, mock.origin, env);
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
    const page = await context.newPage();
    await page.goto(host.url);
    await expectConnected(page);

    // The user connects Anthropic once, with an API key (the host keeps it in the keychain).
    await page.getByRole('tab', { name: 'Connections' }).click();
    const form = page.getByTestId('add-api-key');
    await form.getByLabel('Provider').selectOption({ label: 'Anthropic' });
    await form.getByLabel('API key').fill(REAL_KEY);
    await form.getByRole('button', { name: 'Add API key' }).click();
    await expect(page.getByTestId('add-api-key-result')).toContainText('will not be shown again');
    await page.getByTestId('tab-session').click();
    return { page, home, userHome, workspace, port, env };
  }

  test('start Claude Code in a terminal card, restart the host, Resume, and the conversation continues', async () => {
    const { page, home, userHome, workspace, port, env } = await openConnectedApp();
    await createSession(page, workspace, 'Claude work');
    const view = visibleSessionView(page);
    const panel = view.getByTestId('harness-panel');
    await panel.getByTestId('new-claude-code').click();
    const card = view.getByTestId('terminal-card').filter({ hasText: 'claude-code' });
    await expect(card).toBeVisible();
    await expect.poll(() => terminalText(card), { timeout: 60_000, message: 'Claude Code opens on its prompt' }).toMatch(/manual mode on/);
    await typeInto(page, card, 'remember the word PLUM');
    await expect.poll(() => terminalText(card), { timeout: 60_000 }).toContain('mock reply to: remember the word PLUM');
    expect(turnWith(mock, 'remember the word PLUM')?.apiKey, 'the mock got the real key, from the proxy').toBe(REAL_KEY);

    const row = panel.getByTestId('harness-session');
    await expect(row.getByTestId('harness-status')).toHaveText('running');
    const key = (await row.getByTestId('harness-key').textContent())!.replace(/^anthropic · /, '');
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const command = (await row.getByTestId('harness-display-command').textContent())!;
    expect(command).toContain(`--session-id ${key}`);
    expect(command).toContain('ANTHROPIC_API_KEY=<redacted>');
    await row.getByTestId('harness-copy').click();
    await expect(row.getByTestId('harness-copy')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    await saveScreenshot(page, 'harness-claude-code-running');

    // Restart the host: the CLI ends with it; the stored session waits to be resumed.
    if (host) await stopPrivateKeyringHost(host);
    host = await startHarnessHost(port, home, userHome, mock.origin, env);
    await page.goto(host.url);
    await expectConnected(page);
    await sessionItem(page, 'Claude work').click();
    const after = visibleSessionView(page).getByTestId('harness-panel').getByTestId('harness-session');
    await expect(after.getByTestId('harness-status')).toHaveText('stopped');
    await expect(after).toContainText('Resume continues the conversation');
    await expect(after.getByTestId('harness-key')).toHaveText(`anthropic · ${key}`);
    await expect(visibleSessionView(page).getByTestId('terminal-card')).toHaveCount(0);

    // Codex cannot continue an Anthropic conversation: the host refuses with the harness registry's own words.
    await after.getByTestId('harness-resume-with').selectOption({ label: 'Codex' });
    await after.getByTestId('harness-resume').click();
    await expect(after.getByTestId('harness-error')).toHaveText(
      "this session's continuation is anthropic-typed; it cannot be resumed with codex-cli (openai). Resume it with agent-sdk or claude-code, or start a new session without the continuation. [HARNESS_PROVIDER_MISMATCH]",
    );
    await expect(after.getByTestId('harness-status')).toHaveText('stopped');

    await after.getByTestId('harness-resume-with').selectOption({ label: 'Claude Code' });
    await after.getByTestId('harness-resume').click();
    await expect(after.getByTestId('harness-error')).toHaveCount(0);
    const resumed = visibleSessionView(page).getByTestId('terminal-card').filter({ hasText: 'claude-code' });
    await expect(resumed).toBeVisible();
    await expect(after.getByTestId('harness-status')).toHaveText('running');
    await expect(after.getByTestId('harness-display-command')).toContainText(`--resume ${key}`);
    await expect.poll(() => terminalText(resumed), { timeout: 60_000 }).toMatch(/manual mode on/);
    await typeInto(page, resumed, 'which word was it');
    await expect.poll(() => terminalText(resumed), { timeout: 60_000 }).toContain('mock reply to: which word was it');
    const said = JSON.stringify(conversationOf(turnWith(mock, 'which word was it')!));
    expect(said, 'the resumed CLI sent the earlier conversation').toContain('remember the word PLUM');
    expect(said).toContain('mock reply to: remember the word PLUM');
    await saveScreenshot(page, 'harness-claude-code-resumed');

    await after.getByTestId('harness-stop').click();
    await expect(after.getByTestId('harness-status')).toHaveText('stopped');
    expect(await page.content()).not.toContain(REAL_KEY);
  });

  test('a headless Claude Code session shows its answer in an output card, and a resumed one continues it', async () => {
    const { page, workspace } = await openConnectedApp();
    await createSession(page, workspace, 'Headless work');
    const panel = visibleSessionView(page).getByTestId('harness-panel');
    await panel.getByTestId('harness-mode').selectOption('headless');
    await expect(panel.getByTestId('new-claude-code'), 'a headless session needs a prompt').toBeDisabled();
    await panel.getByTestId('harness-prompt').fill('remember the word FIG');
    await panel.getByTestId('new-claude-code').click();
    const row = panel.getByTestId('harness-session');
    await expect(row.getByTestId('harness-text')).toHaveText(['mock reply to: remember the word FIG'], { timeout: 60_000 });
    await expect(row.getByTestId('harness-status')).toHaveText('exited (0)');
    await expect(row.getByTestId('harness-display-command')).toContainText('-p --output-format stream-json');

    await row.getByLabel('Prompt for the resumed conversation').fill('which fruit');
    await row.getByTestId('harness-resume').click();
    await expect(row.getByTestId('harness-text')).toHaveText(['mock reply to: which fruit'], { timeout: 60_000 });
    const said = JSON.stringify(conversationOf(turnWith(mock, 'which fruit')!));
    expect(said).toContain('remember the word FIG');
    await expect(row.getByTestId('harness-status')).toHaveText('exited (0)');
    await saveScreenshot(page, 'harness-claude-code-headless');
  });
});
