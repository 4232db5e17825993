// Consent in plain words and "Allow once" that never yields a silent wrong answer (issue 23 items 4, 5, 6), against
// the real host in Chromium: a command card reads `$ node -e "…"` with its full folder; a write shows a diff against
// the file as it is (a token in it scrubbed); the scope is a sentence; A and D answer the focused card, a new card
// takes focus and gives it back; workspace-summary allowed once asks again for each later read and counts every
// file; its spent once-grants leave the grants panel with the run; http-check is refused before anyone is asked
// to reach 127.0.0.1, and says why.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { createSession, expectConnected, saveScreenshot, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';
import { callsInOrder, installWatAgent } from './watAgent';

const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4)}`;

async function installAgents(home: string): Promise<void> {
  await installWatAgent(
    home,
    'shell-runner',
    ['process.exec'],
    callsInOrder([{ fn: 'shell', req: { command: ['node', '-e', 'console.log(6*7)'], cwd: 'tools', reason: 'to check the sum' } }]),
  );
  const content = `one\nthree\ntoken=${TOKEN}\n`;
  await installWatAgent(
    home,
    'note-writer',
    ['files.write'],
    callsInOrder([
      { fn: 'consent', req: { capability: 'files.write', target: 'notes.md', reason: 'to update your notes', duration_s: 600, content_b64: Buffer.from(content).toString('base64') } },
      { fn: 'files_write', req: { path: 'notes.md', data_b64: Buffer.from(content).toString('base64') } },
    ]),
  );
}

/** Runs `agent` with `prompt` from the session's launcher; the prompt field keeps focus, as after typing. */
async function launch(page: Page, agent: string, prompt: string): Promise<{ session: Locator; input: Locator }> {
  const session = visibleSessionView(page);
  await session.getByTestId('agent-select').selectOption(agent);
  const input = session.getByTestId('agent-prompt');
  await input.fill(prompt);
  await input.press('Enter');
  return { session, input };
}

/** Files and folders as workspace-summary counts them: three levels deep, without .git and node_modules. */
function countLikeTheAgent(folder: string, depth = 0): { files: number; folders: number } {
  let files = 0;
  let folders = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      folders++;
      if (depth < 3) {
        const inner = countLikeTheAgent(join(folder, entry.name), depth + 1);
        files += inner.files;
        folders += inner.folders;
      }
    } else files++;
  }
  return { files, folders };
}

test.describe('consent in plain words', () => {
  // Each test starts a host, a session and a real agent run; on a loaded 2-core machine that alone can pass 30 s.
  test.describe.configure({ timeout: 90_000 });
  // eslint-disable-next-line no-empty-pattern
  test.use({ prepareHome: async ({}, use) => use(installAgents) });

  test('a command card: `$ node -e …` in its full folder, no argv JSON; focus on the card, D denies, focus comes back', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const workspace = omni.newWorkspace('commands');
    mkdirSync(join(workspace, 'tools'));
    await createSession(page, workspace, 'Commands');
    const { session, input } = await launch(page, 'shell-runner', 'check');
    const card = session.getByTestId('consent-card');
    await expect(card).toHaveCount(1, { timeout: 15_000 });
    await expect(card).toBeFocused();
    await expect(card.getByTestId('consent-command')).toHaveText('$ node -e "console.log(6*7)"');
    await expect(card.getByTestId('consent-folder')).toHaveText(join(workspace, 'tools'));
    await expect(card).not.toContainText('["node"');
    await expect(card.getByTestId('consent-scope')).toHaveText('only this command, in this folder');
    await expect(card.getByTestId('consent-countdown')).toHaveText(/^Auto-deny in \d+:\d\d$/);
    await expect(card.getByLabel('Duration (minutes)')).toHaveValue('10');
    await expect(card.getByTestId('consent-allow-once')).toHaveAttribute('aria-keyshortcuts', 'A');
    await expect(card.getByTestId('consent-deny')).toHaveAttribute('aria-keyshortcuts', 'D');
    await saveScreenshot(page, 'consent-command-card');
    await page.keyboard.press('d');
    await expect(card).toHaveCount(0);
    await expect(input).toBeFocused();
    await expect(session.getByTestId('run-card').first()).toHaveAttribute('data-state', 'Terminated', { timeout: 15_000 });
  });

  test('a write card shows the diff against the file as it is, with a token scrubbed; A allows once and the file is written', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const workspace = omni.newWorkspace('notes');
    writeFileSync(join(workspace, 'notes.md'), 'one\ntwo\n');
    await createSession(page, workspace, 'Notes');
    const { session, input } = await launch(page, 'note-writer', 'update');
    const card = session.getByTestId('consent-card');
    await expect(card).toHaveCount(1, { timeout: 15_000 });
    await expect(card).toBeFocused();
    const write = card.getByTestId('consent-write');
    await expect(write).toHaveAttribute('data-new-file', 'false');
    await expect(write.getByTestId('diff-lines')).toContainText('-two');
    await expect(write.getByTestId('diff-lines')).toContainText('+three');
    await expect(write).toContainText('[REDACTED:github-token]');
    await expect(card).not.toContainText(TOKEN);
    await expect(card.getByTestId('consent-scope')).toHaveText(`only ${join(workspace, 'notes.md')}, write (create, change or replace)`);
    await saveScreenshot(page, 'consent-write-card');
    await page.keyboard.press('a');
    await expect(card).toHaveCount(0);
    await expect(input).toBeFocused();
    await expect(session.getByTestId('run-card').first()).toHaveAttribute('data-state', 'Terminated', { timeout: 15_000 });
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe(`one\nthree\ntoken=${TOKEN}\n`);
  });

  test('workspace-summary allowed once on a folder of 4 files: each later read asks again, the count is right, spent grants leave with the run', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const workspace = omni.newWorkspace('four-files');
    mkdirSync(join(workspace, 'sub'));
    for (const file of ['a.txt', 'b.md', 'sub/c.txt', 'sub/d.txt']) writeFileSync(join(workspace, file), file);
    await createSession(page, workspace, 'Four files');
    const { session, input } = await launch(page, 'workspace-summary', 'summarise');
    const run = session.getByTestId('run-card').first();
    const card = session.getByTestId('consent-card');
    const ended = session.locator('[data-testid="run-card"][data-state="Terminated"]');

    await expect(card).toHaveCount(1, { timeout: 15_000 });
    await expect(card.getByTestId('consent-scope')).toHaveText(`all files in ${workspace}, read only`);
    await saveScreenshot(page, 'consent-scope-sentence');
    // Every prompt is answered "Allow once" by key on the card that took focus; each later read asks anew.
    let prompts = 0;
    for (; prompts < 20; prompts++) {
      await expect(card.first().or(ended)).toBeVisible({ timeout: 15_000 });
      if ((await ended.count()) > 0) break;
      const id = await card.first().getAttribute('data-prompt-id');
      await expect(card.first()).toBeFocused();
      await page.keyboard.press('a');
      await expect(session.locator(`[data-testid="consent-card"][data-prompt-id="${id}"]`)).toHaveCount(0);
    }
    expect(prompts, 'the first ask and at least one new prompt for a later read').toBeGreaterThan(1);
    await expect(input).toBeFocused();
    await expect(run).toHaveAttribute('data-state', 'Terminated');
    const { files, folders } = countLikeTheAgent(workspace);
    expect(files).toBeGreaterThanOrEqual(4);
    await expect(run).toContainText(`${files} files in ${folders} folders`);
    await expect(session.getByTestId('grant-row'), 'the spent once-grants left with the run').toHaveCount(0);
  });

  test('http-check on 127.0.0.1 is refused before anyone is asked, and says why', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('loopback'), 'Loopback');
    const { session } = await launch(page, 'http-check', 'http://127.0.0.1:9/');
    const run = session.getByTestId('run-card').first();
    await expect(run).toHaveAttribute('data-state', 'Terminated', { timeout: 15_000 });
    await expect(run).toContainText('No request was made to 127.0.0.1');
    await expect(run).toContainText('127.0.0.1 is a loopback address; agents may reach only public internet addresses');
    await expect(session.getByTestId('consent-card')).toHaveCount(0);
    await expect(session.getByTestId('grant-row')).toHaveCount(0);
  });
});
