// An ACP conversation end to end, in Chromium against the real host with the scripted fake ACP agent
// (test/acp/fakeAcpAgent.ts, scenario 'conversation'): start it from "New agent conversation", prompt, the reply
// streams in as markdown, the agent's write asks permission → a consent card → allowed by click → the tool call
// completes with its diff and the file is in the workspace, the plan is a checklist; the host is killed and started
// again, the conversation's history comes back from the event log (after a page reload too), and Resume continues it.
// An agent's command (terminal/create) asks on a consent card, runs as a run of the shell tool, and its output shows
// in the tool call's own screen.
import type { BrowserContext } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_OUTPUT, NOTES_TEXT } from '../test/acp/fakeAcpConversation';
import { startAcpHost, writeFakeAcpAgent } from './acpHostProcess';
import { createSession, expectConnected, saveScreenshot, sessionItem, terminalText, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';
import { freePort, stopHost, type HostProcess } from './hostProcess';

test.describe('ACP conversations', () => {
  test.setTimeout(150_000);
  let host: HostProcess | undefined;
  let context: BrowserContext | undefined;
  let tmp: string;

  test.beforeEach(() => {
    host = undefined;
    context = undefined;
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'omni-e2e-acp-')));
  });

  test.afterEach(async () => {
    const info = test.info();
    if (host && info.status !== info.expectedStatus) await info.attach('host-output', { body: host.output() });
    await context?.close();
    if (host) await stopHost(host, false);
    rmSync(tmp, { recursive: true, force: true });
  });

  test('a whole conversation: streamed reply, a write allowed on its consent card, its diff, the plan, a restart, Resume', async ({ webBrowser }) => {
    const home = join(tmp, 'home');
    const userHome = join(tmp, 'user');
    const workspace = join(tmp, 'project');
    for (const dir of [home, userHome, workspace]) mkdirSync(dir);
    writeFakeAcpAgent(home, 'fake', 'conversation');
    const port = await freePort();
    host = await startAcpHost(port, home, userHome);
    context = await (await webBrowser()).newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
    await page.goto(host.url);
    await expectConnected(page);
    await createSession(page, workspace, 'acp');
    const view = visibleSessionView(page);

    // Start: the user's agent is offered next to the built-ins.
    await view.getByTestId('acp-new').click();
    await expect(view.getByTestId('acp-agent-claude')).toBeVisible();
    await view.getByTestId('acp-agent-fake').click();
    const card = view.getByTestId('acp-conversation');
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    // The plain launcher: the card must say the agent is not confined.
    await expect(card.getByTestId('acp-unsandboxed')).toBeVisible();

    // The agent's slash commands show on `/`, and picking one puts it in the prompt.
    const prompt = card.getByTestId('acp-prompt');
    await prompt.pressSequentially('/re');
    await card.getByTestId('acp-commands').getByText('/review').click();
    await expect(prompt).toHaveValue('/review ');
    await prompt.fill('');

    // A prompt (Enter sends): the reply streams in as markdown, then the write waits on its consent card.
    await prompt.fill('Please write the notes');
    await prompt.press('Enter');
    const reply = card.getByTestId('acp-agent-message').first();
    await expect(reply.locator('h4')).toHaveText('Turn 1');
    await expect(reply.locator('strong')).toHaveText('Please write the notes');
    await expect(reply.locator('li')).toHaveText(['first point', 'second point']);
    await expect(card.getByTestId('acp-thought')).not.toHaveAttribute('open');
    const toolCall = card.getByTestId('acp-tool-call');
    await expect(toolCall).toHaveAttribute('data-status', 'pending');
    await expect(toolCall.getByTestId('acp-tool-location')).toHaveText(join(workspace, 'notes.md'));
    await expect(card.getByTestId('acp-plan').getByTestId('acp-plan-entry')).toHaveCount(2);
    await expect(card.getByTestId('acp-plan').locator('[data-status="in_progress"]')).toHaveText(/Write notes\.md/);
    const consent = view.getByTestId('consent-card');
    await expect(consent).toBeVisible({ timeout: 20_000 });
    await expect(consent.getByTestId('consent-agent')).toHaveText('acp:fake');
    await expect(card.getByTestId('acp-waiting-consent')).toBeVisible();
    await expect(card).toHaveAttribute('data-status', 'prompting');
    await expect(card.getByTestId('acp-cancel')).toBeVisible();
    await consent.getByTestId('consent-allow-once').click();

    // Allowed: the file is written through the host, the card shows the completed call with its diff, the plan is done.
    await expect(toolCall).toHaveAttribute('data-status', 'completed');
    await expect(toolCall.getByTestId('diff-file')).toHaveText(join(workspace, 'notes.md'));
    await expect(toolCall.getByTestId('diff-lines')).toContainText('+written by the fake agent');
    await expect(card.getByTestId('acp-plan').locator('[data-status="completed"]')).toHaveCount(2);
    await expect(card).toHaveAttribute('data-status', 'ready');
    await expect(card.getByTestId('acp-turn')).toHaveAttribute('data-stop-reason', 'end_turn');
    await expect(card.getByTestId('acp-agent-message').last()).toContainText('Done: notes.md is written.');
    await expect(card.getByTestId('acp-usage')).toContainText('0.0125');
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe(NOTES_TEXT);
    await expect(consent).toHaveCount(0);
    await saveScreenshot(page, 'acp-conversation');

    // The host dies (SIGKILL) and comes back: the conversation shows stopped with its history, also after a reload.
    await stopHost(host, true);
    host = await startAcpHost(port, home, userHome);
    await page.reload();
    await expectConnected(page);
    await sessionItem(page, 'acp').click();
    await expect(card).toHaveAttribute('data-status', 'stopped', { timeout: 30_000 });
    await expect(card.getByTestId('acp-user-prompt')).toHaveText(['You: Please write the notes']);
    await expect(card.getByTestId('acp-agent-message').first().locator('strong')).toHaveText('Please write the notes');
    await expect(toolCall).toHaveAttribute('data-status', 'completed');
    await expect(toolCall.getByTestId('diff-lines')).toContainText('+written by the fake agent');
    await expect(card.getByTestId('acp-plan').locator('[data-status="completed"]')).toHaveCount(2);
    await expect(card.getByTestId('acp-send')).toBeDisabled();

    // Resume (session/load), then another prompt with an @file mention.
    await card.getByTestId('acp-resume').click();
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await prompt.pressSequentially('Summarize @');
    await card.getByTestId('acp-mention-path').fill('notes.md');
    await card.getByTestId('acp-mention-path').press('Enter');
    await expect(prompt).toHaveValue('Summarize @notes.md ');
    await card.getByTestId('acp-send').click();
    await expect(card.getByTestId('acp-user-prompt')).toHaveText(['You: Please write the notes', 'You: Summarize @notes.md']);
    await expect(card.getByTestId('acp-agent-message').last().locator('strong')).toHaveText('Summarize @notes.md');
    await expect(card).toHaveAttribute('data-status', 'ready');
    await expect(card.getByTestId('acp-turn')).toHaveCount(2);
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
  });

  test("an agent's command asks on a consent card, then its output shows in the tool call", async ({ webBrowser }) => {
    const home = join(tmp, 'home');
    const userHome = join(tmp, 'user');
    const workspace = join(tmp, 'project');
    for (const dir of [home, userHome, workspace]) mkdirSync(dir);
    writeFakeAcpAgent(home, 'fake', 'conversation');
    host = await startAcpHost(await freePort(), home, userHome);
    context = await (await webBrowser()).newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(host.url);
    await expectConnected(page);
    await createSession(page, workspace, 'acp-run');
    const view = visibleSessionView(page);
    await view.getByTestId('acp-new').click();
    await view.getByTestId('acp-agent-fake').click();
    const card = view.getByTestId('acp-conversation');
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });

    await card.getByTestId('acp-prompt').fill('Please run the build');
    await card.getByTestId('acp-send').click();
    const consent = view.getByTestId('consent-card');
    await expect(consent).toBeVisible({ timeout: 20_000 });
    await expect(consent).toContainText(BUILD_OUTPUT);
    await consent.getByTestId('consent-allow-once').click();

    const toolCall = card.getByTestId('acp-tool-call');
    const output = toolCall.getByTestId('run-output');
    await expect(output).toBeVisible();
    await expect.poll(() => terminalText(output), { timeout: 20_000 }).toContain(BUILD_OUTPUT);
    await expect(output).toHaveAttribute('data-ended', 'true');
    await expect(toolCall).toHaveAttribute('data-status', 'completed');
    await expect(card.getByTestId('acp-agent-message').last()).toContainText('The build exited with 0.');
  });
});
