// A turn's changes end to end, in Chromium against the real host (its changes area, a shadow git store under the
// app home) with the scripted fake ACP agent (test/acp/fakeAcpAgent.ts, scenario 'conversation'): a prompt that
// writes notes.md through the host while this test edits src.ts in two places (whatever changed the files, the
// turn's snapshot sees it); the prompt's "N files changed" badge opens the review; one hunk of src.ts is rejected by
// click and the file on disk then holds exactly the other hunk, which is accepted by keyboard; the Changes panel
// lists the turn, and "Restore to here" on the session's first snapshot shows what it will do, then puts the
// workspace back (notes.md gone, src.ts as it was); the restore is listed as a turn of its own.
import type { BrowserContext } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NOTES_TEXT } from '../test/acp/fakeAcpConversation';
import { startAcpHost, writeFakeAcpAgent } from './acpHostProcess';
import { createSession, expectConnected, saveScreenshot, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';
import { freePort, stopHost, type HostProcess } from './hostProcess';

/** 20 lines; the turn changes line 2 and line 18, far enough apart to be two hunks. */
const ORIGINAL = Array.from({ length: 20 }, (_, i) => `export const line${i + 1} = ${i + 1};`);
const EDITED = ORIGINAL.map((line, i) => (i === 1 ? 'export const line2 = "two";' : i === 17 ? 'export const line18 = "eighteen";' : line));
const text = (lines: string[]) => `${lines.join('\n')}\n`;

test.describe('changes: review and rewind', () => {
  test.setTimeout(120_000);
  let host: HostProcess | undefined;
  let context: BrowserContext | undefined;
  let tmp: string;

  test.beforeEach(() => {
    host = undefined;
    context = undefined;
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'omni-e2e-changes-')));
  });

  test.afterEach(async () => {
    const info = test.info();
    if (host && info.status !== info.expectedStatus) await info.attach('host-output', { body: host.output() });
    await context?.close();
    if (host) await stopHost(host, false);
    rmSync(tmp, { recursive: true, force: true });
  });

  test("a turn's review from its card, a hunk rejected by click, a restore from the timeline", async ({ webBrowser }) => {
    const home = join(tmp, 'home');
    const userHome = join(tmp, 'user');
    const workspace = join(tmp, 'project');
    for (const dir of [home, userHome, workspace]) mkdirSync(dir);
    const src = join(workspace, 'src.ts');
    writeFileSync(src, text(ORIGINAL));
    writeFakeAcpAgent(home, 'fake', 'conversation');
    const port = await freePort();
    host = await startAcpHost(port, home, userHome);
    context = await (await webBrowser()).newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: 'light' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
    await page.goto(host.url);
    await expectConnected(page);
    await createSession(page, workspace, 'changes');
    const view = visibleSessionView(page);

    // The turn: the agent writes notes.md once allowed; meanwhile src.ts is edited in two places.
    await view.getByTestId('acp-new').click();
    await view.getByTestId('acp-agent-fake').click();
    const card = view.getByTestId('acp-conversation');
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await card.getByTestId('acp-prompt').fill('Please write the notes');
    await card.getByTestId('acp-prompt').press('Enter');
    const consent = view.getByTestId('consent-card');
    await expect(consent).toBeVisible({ timeout: 20_000 });
    writeFileSync(src, text(EDITED));
    await consent.getByTestId('consent-allow-once').click();
    await expect(card.getByTestId('acp-turn')).toHaveAttribute('data-stop-reason', 'end_turn', { timeout: 20_000 });
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe(NOTES_TEXT);

    // The prompt's badge counts both files; Enter on it opens the review.
    const badge = card.getByTestId('turn-changes-badge');
    await expect(badge).toHaveText('2 files changed', { timeout: 20_000 });
    await badge.focus();
    await page.keyboard.press('Enter');
    const review = page.getByTestId('review');
    await expect(review).toBeVisible();
    await expect(review.getByTestId('review-counts')).toHaveText('1 added · 1 modified');
    await expect(review.getByTestId('review-file')).toHaveCount(2);
    await expect(review.locator('[data-testid="review-file"][data-path="notes.md"]')).toHaveAttribute('data-status', 'added');

    // src.ts: two hunks; the second is rejected by click, and only it goes back on disk.
    await review.locator('[data-testid="review-file"][data-path="src.ts"]').click();
    const hunks = review.getByTestId('review-hunk');
    await expect(hunks).toHaveCount(2);
    await expect(review.getByTestId('review-diff')).toContainText('"eighteen"');
    await hunks.nth(1).getByTestId('review-hunk-reject').click();
    await expect(hunks.nth(1)).toHaveAttribute('data-verdict', 'rejected');
    await expect(hunks.nth(0)).toHaveAttribute('data-verdict', 'pending');
    await expect(review.getByTestId('review-file-verdict')).toHaveText('mixed');
    expect(readFileSync(src, 'utf8')).toBe(text(ORIGINAL.map((line, i) => (i === 1 ? EDITED[1] : line))));
    // By keyboard: k goes back to the first hunk, a accepts it; the disk keeps it.
    await review.getByTestId('review-diff').focus();
    await page.keyboard.press('k');
    await page.keyboard.press('a');
    await expect(hunks.nth(0)).toHaveAttribute('data-verdict', 'accepted');
    expect(readFileSync(src, 'utf8')).toBe(text(ORIGINAL.map((line, i) => (i === 1 ? EDITED[1] : line))));
    // Side by side shows the same hunks and keeps their verdicts.
    await review.getByTestId('review-split').click();
    await expect(review.getByTestId('review-diff')).toHaveAttribute('data-mode', 'split');
    await expect(review.getByTestId('review-hunk').nth(1)).toHaveAttribute('data-verdict', 'rejected');
    await saveScreenshot(page, 'changes-review');
    // notes.md accepted as a whole: every file now has a verdict, so the turn has one.
    await review.locator('[data-testid="review-file"][data-path="notes.md"]').click();
    await review.getByTestId('review-file-accept').click();
    await expect(review.getByTestId('review-file-verdict')).toHaveText('accepted');
    await expect(review.locator('[data-testid="review-file"][data-path="notes.md"]')).toHaveAttribute('data-verdict', 'accepted');
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe(NOTES_TEXT);
    await expect(review.getByTestId('review-turn-verdict')).toHaveText('partly rejected');
    await page.keyboard.press('Escape');
    await expect(review).toHaveCount(0);
    // The card keeps the verdict: it reads it from the host.
    await expect(badge).toHaveAttribute('data-verdict', 'mixed');

    // The Changes panel lists the turn; the timeline restores the snapshot taken before it.
    await view.getByTestId('changes-toggle').click();
    const panel = view.getByTestId('changes-panel');
    await expect(panel.getByTestId('changes-turn')).toHaveCount(1);
    await expect(panel.getByTestId('changes-turn').first()).toHaveAttribute('data-verdict', 'mixed');
    // The session's first snapshot (taken before its first turn) is its start.
    const before = panel.getByTestId('timeline-snapshot').first();
    await expect(before).toHaveAttribute('data-moment', 'start');
    await expect(before).toBeVisible({ timeout: 10_000 });
    await before.getByTestId('timeline-restore').click();
    const confirm = before.getByTestId('restore-confirm');
    await expect(confirm.getByTestId('restore-files').locator('li')).toHaveCount(2);
    await expect(confirm.locator('li[data-action="delete"]')).toContainText('notes.md');
    await expect(confirm.locator('li[data-action="restore"]')).toContainText('src.ts');
    await confirm.getByTestId('restore-confirm-button').click();
    await expect(panel.getByTestId('restore-done')).toBeVisible();
    expect(existsSync(join(workspace, 'notes.md'))).toBe(false);
    expect(readFileSync(src, 'utf8')).toBe(text(ORIGINAL));
    // The restore is a turn of its own, so it can be reviewed and undone.
    await expect(panel.getByTestId('changes-turn')).toHaveCount(2);
    await expect(panel.getByTestId('changes-turn').last()).toHaveAttribute('data-source', 'restore');
    await saveScreenshot(page, 'changes-timeline');
    expect(pageErrors).toEqual([]);
  });
});
