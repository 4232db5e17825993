// An ACP conversation end to end, in Chromium against the real host with the scripted fake ACP agent
// (test/acp/fakeAcpAgent.ts, scenario 'conversation'): start it from "New agent conversation", prompt, the reply
// streams in as markdown, the agent's write asks permission → a consent card → allowed by click → the tool call
// completes with its diff and the file is in the workspace, the plan is a checklist; the host is killed and started
// again, the conversation's history comes back from the event log (after a page reload too), and Resume continues it.
// An agent's command (terminal/create) asks on a consent card, runs as a run of the shell tool, and its output shows
// in the tool call's own screen.
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
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

  /** A host whose user-configured agent "fake" plays `scenario` (test/acp/fakeAcpAgent.ts), and a page on it in a session. */
  async function pageWithFakeAgent(
    webBrowser: () => Promise<Browser>,
    scenario: string,
    sessionName: string,
    options: { viewport: { width: number; height: number }; colorScheme?: 'light' | 'dark'; clipboard?: boolean },
  ): Promise<{ page: Page; view: Locator }> {
    const home = join(tmp, 'home');
    const userHome = join(tmp, 'user');
    const workspace = join(tmp, 'project');
    for (const dir of [home, userHome, workspace]) mkdirSync(dir);
    writeFakeAcpAgent(home, 'fake', scenario);
    host = await startAcpHost(await freePort(), home, userHome);
    context = await (await webBrowser()).newContext({ viewport: options.viewport, colorScheme: options.colorScheme });
    if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
    const page = await context.newPage();
    await page.goto(host.url);
    await expectConnected(page);
    await createSession(page, workspace, sessionName);
    return { page, view: visibleSessionView(page) };
  }

  /** "New agent conversation" with the fake agent; its card once the agent is ready. */
  async function newFakeConversation(view: Locator): Promise<Locator> {
    await view.getByTestId('acp-new').click();
    await view.getByTestId('acp-agent-fake').click();
    const card = view.getByTestId('acp-conversation');
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    return card;
  }

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
    const { view } = await pageWithFakeAgent(webBrowser, 'conversation', 'acp-run', { viewport: { width: 1400, height: 1000 }, colorScheme: 'light' });
    const card = await newFakeConversation(view);

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
  test('a long reply still streaming: the view follows its newest words, scrolling back up shows its text, which can be selected and copied', async ({ webBrowser }) => {
    // 60 paragraphs at once, then a few words every 100 ms until cancelled (test/acp/fakeAcpAgent.ts).
    const { page, view } = await pageWithFakeAgent(webBrowser, 'long-reply', 'acp-long', { viewport: { width: 1000, height: 700 }, colorScheme: 'dark', clipboard: true });
    const card = await newFakeConversation(view);
    await card.getByTestId('acp-prompt').fill('Tell me everything');
    await card.getByTestId('acp-send').click();

    const log = card.getByRole('log', { name: 'Conversation' });
    const reply = card.getByTestId('acp-agent-message');
    const belowView = (): Promise<number> => log.evaluate((e) => e.scrollHeight - e.scrollTop - e.clientHeight);
    const moreCount = (): Promise<number> => reply.evaluate((e) => (e.textContent ?? '').split('and more').length);
    // Following: the newest words stay in view while they keep coming, the last paragraph too.
    await expect(reply).toContainText('«59»');
    const before = await moreCount();
    await expect.poll(moreCount).toBeGreaterThan(before + 2);
    await expect.poll(belowView).toBeLessThan(30);
    await expect(reply.getByText('«59»')).toBeInViewport();
    // Far above the view, paragraphs wait as placeholders (what scrolling back up below has to draw).
    await expect.poll(() => card.getByTestId('acp-block-pending').count()).toBeGreaterThan(10);

    // Scrolled back to the top: the first paragraph's text is there, and new words do not pull the view down.
    await log.evaluate((e) => (e.scrollTop = 0));
    const first = reply.getByText('«0»');
    await expect(first).toBeInViewport();
    await expect(first).toContainText('a long answer streams in word by word');
    const whileReading = await moreCount();
    await expect.poll(moreCount).toBeGreaterThan(whileReading + 2);
    expect(await log.evaluate((e) => e.scrollTop)).toBe(0);
    // Scrolled to the middle: what is in view is text (paragraphs of the middle), not empty boxes.
    await log.evaluate((e) => (e.scrollTop = e.scrollHeight / 2));
    const inView = (): Promise<{ empty: number; numbers: number[] }> =>
      log.evaluate((e) => {
        const view = e.getBoundingClientRect();
        const shown = (el: Element): boolean => {
          const box = el.getBoundingClientRect();
          return box.bottom > view.top && box.top < view.bottom;
        };
        const empty = [...e.querySelectorAll('[data-testid="acp-block-pending"]')].filter(shown).length;
        const numbers = [...e.querySelectorAll('.acp-block p')].filter(shown).map((p) => Number(/«(\d+)»/.exec(p.textContent ?? '')?.[1] ?? -1));
        return { empty, numbers };
      });
    await expect.poll(async () => (await inView()).empty).toBe(0);
    const middle = (await inView()).numbers.filter((n) => n >= 0);
    expect(middle.length).toBeGreaterThan(0);
    expect(Math.min(...middle)).toBeGreaterThan(10);
    expect(Math.max(...middle)).toBeLessThan(50);

    // Its text can be selected and copied.
    await first.click({ clickCount: 3 });
    await page.keyboard.press('Control+C');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('«0» a long answer streams in word by word');

    // Once the turn ends, every paragraph is in the page (find in page, select all), whatever was scrolled to.
    await card.getByTestId('acp-cancel').click();
    await expect(card).toHaveAttribute('data-status', 'ready');
    for (const n of [10, 45, 58]) await expect(reply).toContainText(`«${n}» a long answer`);
    await expect(card.getByTestId('acp-block-pending')).toHaveCount(0);
  });
  test('a reply streaming in faster than anyone reads is redrawn at most ~30 times a second, and its end is drawn', async ({ webBrowser }) => {
    // A short chunk every 4 ms for 3 s (test/acp/fakeAcpAgent.ts): a page with nothing else to do draws at every frame.
    const { page, view } = await pageWithFakeAgent(webBrowser, 'steady-stream', 'acp-steady', { viewport: { width: 1000, height: 700 } });
    const card = await newFakeConversation(view);
    // Every change of the card's log, timed: each redraw of the reply is one batch of mutations.
    await card.getByRole('log', { name: 'Conversation' }).evaluate((log) => {
      const draws: number[] = [];
      (window as { __draws?: number[] }).__draws = draws;
      new MutationObserver(() => draws.push(performance.now())).observe(log, { childList: true, subtree: true, characterData: true });
    });
    await card.getByTestId('acp-prompt').fill('Stream steadily');
    await card.getByTestId('acp-send').click();
    const reply = card.getByTestId('acp-agent-message');
    await expect(reply).toContainText('«end»', { timeout: 30_000 });
    await expect(card).toHaveAttribute('data-status', 'ready');
    await expect(reply).toContainText('«749» streaming steadily');

    const draws = await page.evaluate(() => (window as { __draws?: number[] }).__draws!);
    // The middle of the stream (its first draws are the prompt's and the reply's first chunk, drawn at once).
    const middle = draws.slice(5, -2);
    const perSecond = ((middle.length - 1) * 1000) / (middle.at(-1)! - middle[0]);
    expect(middle.length).toBeGreaterThan(20);
    expect(perSecond).toBeLessThanOrEqual(36);
  });
});
