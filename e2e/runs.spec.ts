import type { Locator, Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createSession, expectConnected, saveScreenshot, terminalText, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';

/** Types a command into the Runs panel and starts it; returns its row (newest first) and its card (opened at once). */
async function runCommand(page: Page, command: string, options: { pty?: boolean } = {}): Promise<{ row: Locator; card: Locator }> {
  const view = visibleSessionView(page);
  const before = await view.getByTestId('exec-run-row').count();
  const pty = view.getByTestId('exec-run-pty');
  if ((await pty.isChecked()) !== !!options.pty) await pty.click();
  await view.getByTestId('exec-run-command').fill(command);
  await view.getByTestId('exec-run-command').press('Enter');
  await expect(view.getByTestId('exec-run-row')).toHaveCount(before + 1);
  await expect(view.getByTestId('exec-run-command')).toHaveValue('');
  const runId = await view.getByTestId('exec-run-row').first().getAttribute('data-run-id');
  return {
    row: view.locator(`[data-testid="exec-run-row"][data-run-id="${runId}"]`),
    card: view.locator(`[data-testid="exec-run-card"][data-run-id="${runId}"]`),
  };
}

/** Characters the run card's screen has parsed (the count the terminal bench reads, keyed by run id). */
function parsedChars(page: Page, runId: string): Promise<number> {
  return page.evaluate((id) => {
    const stats = (window as { __omniTerminalStats?: Record<string, { bytesParsed: number }> }).__omniTerminalStats;
    return stats?.[id]?.bytesParsed ?? 0;
  }, runId);
}

/** `omni shell '<json>'` against the running host of the app's home, as a script in the user's own terminal would. */
function omniShell(home: string, request: object): { run_id: string } {
  const result = spawnSync(process.execPath, [join(__dirname, '../bin/omni.mjs'), 'shell', JSON.stringify(request), '--home', home], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`omni shell failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout) as { run_id: string };
}

test.describe('process runs', () => {
  test('a command runs in the background: exit 0, its size, its output in its card', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('runs-basic'), 'Runs');

    const { row, card } = await runCommand(page, "printf 'hello\\nworld\\n'");
    await expect(row.getByTestId('exec-run-status')).toHaveText('exited 0');
    await expect(row.getByTestId('exec-run-size')).toHaveText('12 B');
    await expect(row).toContainText('you');
    await expect(card).toBeVisible();
    await expect.poll(() => terminalText(card)).toBe('hello\nworld');
    await expect(card.getByTestId('exec-run-notice').filter({ hasText: 'exited with code 0' })).toHaveCount(1);
    await expect(card.getByTestId('exec-run-kill')).toHaveCount(0);

    // A command that is not there: the shell says so on stderr, and the run ends with 127, marked as a bad outcome.
    const missing = await runCommand(page, 'no-such-command-omni-e2e');
    await expect(missing.row.getByTestId('exec-run-status')).toHaveText('exited 127');
    await expect.poll(() => terminalText(missing.card)).toContain('not found');

    // What the sandbox enforces for agents' commands on this machine, each limit in words (issue 5 item 6).
    const report = visibleSessionView(page).getByTestId('exec-sandbox-report');
    await expect(report.locator('summary')).toContainText('Agents’ commands');
    await report.locator('summary').click();
    if ((await report.getAttribute('data-usable')) === 'true') {
      await expect(report.locator('summary')).toContainText(/\d+ of \d+ limits enforced on this machine/);
      expect(await report.getByTestId('exec-sandbox-limit').count()).toBeGreaterThan(0);
    } else {
      await expect(report.getByRole('alert')).not.toBeEmpty();
    }
    await saveScreenshot(page, 'runs-panel-light');
  });

  test('Kill stops a long run: status killed, and the duration stops', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('runs-kill'), 'Kill');

    const { row, card } = await runCommand(page, 'sleep 30');
    await expect(row.getByTestId('exec-run-status')).toHaveText('running');
    // The duration ticks while it runs.
    const firstDuration = await row.getByTestId('exec-run-duration').textContent();
    await expect.poll(() => row.getByTestId('exec-run-duration').textContent()).not.toBe(firstDuration);

    await card.getByTestId('exec-run-kill').click();
    await expect(row.getByTestId('exec-run-status')).toHaveText(/^killed/);
    await expect(card.getByTestId('exec-run-notice').filter({ hasText: 'killed by you' })).toHaveCount(1);
    await expect(card.getByTestId('exec-run-kill')).toHaveCount(0);
    await expect(row.getByTestId('exec-run-row-kill')).toHaveCount(0);
    const stopped = await row.getByTestId('exec-run-duration').textContent();
    await page.waitForTimeout(1500);
    await expect(row.getByTestId('exec-run-duration')).toHaveText(stopped!);
  });

  test('a PTY run takes keys: "echo hi" + Enter prints hi, Ctrl+C interrupts, exit ends it', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('runs-pty'), 'PTY');

    const { row, card } = await runCommand(page, 'bash --norc --noprofile', { pty: true });
    await expect(row.getByTestId('exec-run-status')).toHaveText('running');
    await expect(row).toContainText('PTY');
    const keys = card.getByTestId('exec-run-keys-text');
    await keys.fill('echo hi');
    await card.getByTestId('exec-run-key-Enter').click();
    await expect(keys).toHaveValue('');
    // bash echoes the typed line ("echo hi") and then prints the output on a line of its own.
    await expect.poll(() => terminalText(card)).toMatch(/^hi$/m);
    // The input is not shown a second time: the PTY's echo is the only copy.
    expect((await terminalText(card)).match(/echo hi/g)?.length).toBe(1);

    // Ctrl+C reaches the foreground program through the terminal: the sleep ends and bash takes the next line.
    // It is sent once the sleep runs ("asleep" printed just before it): a Ctrl+C that reached bash while it was still
    // starting the sleep would leave the sleep running, and the next line queued behind it.
    await keys.fill('echo asleep; sleep 100');
    await card.getByTestId('exec-run-key-Enter').click();
    await expect.poll(() => terminalText(card)).toMatch(/^asleep$/m);
    await card.getByTestId('exec-run-key-C-c').click();
    await keys.fill('echo after-$((6*7))');
    await card.getByTestId('exec-run-key-Enter').click();
    await expect.poll(() => terminalText(card)).toMatch(/^after-42$/m);

    // Enter in the text field sends the text with Enter, like the button.
    await keys.fill('exit 4');
    await keys.press('Enter');
    await expect(row.getByTestId('exec-run-status')).toHaveText('exited 4');
    await expect(card.getByTestId('exec-run-keys')).toHaveCount(0);
  });

  test('closing a card and opening it again (keyboard: arrows + Enter), or reloading, replays the whole output', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('runs-replay'), 'Replay');
    const view = visibleSessionView(page);

    const first = await runCommand(page, 'seq 1 5; echo first-done');
    const whole = '1\n2\n3\n4\n5\nfirst-done';
    await expect(first.row.getByTestId('exec-run-status')).toHaveText('exited 0');
    await expect.poll(() => terminalText(first.card)).toBe(whole);
    const second = await runCommand(page, 'echo second');
    await expect(second.row.getByTestId('exec-run-status')).toHaveText('exited 0');

    await first.card.getByTestId('exec-run-card-close').click();
    await second.card.getByTestId('exec-run-card-close').click();
    await expect(view.getByTestId('exec-run-card')).toHaveCount(0);

    // Newest first: the second run is the top row; Down moves to the first run, Enter opens its card.
    await view.getByTestId('exec-run-row').first().locator('.exec-run-open').focus();
    await page.keyboard.press('ArrowDown');
    await expect(first.row.locator('.exec-run-open')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(view.getByTestId('exec-run-card')).toHaveCount(1);
    await expect(first.card).toBeVisible();
    // From the first item, each once.
    await expect.poll(() => terminalText(first.card)).toBe(whole);

    // A reload brings the open card back, replayed.
    await page.reload();
    await expectConnected(page);
    await expect(visibleSessionView(page).getByTestId('exec-run-card')).toHaveCount(1);
    await expect.poll(() => terminalText(first.card)).toBe(whole);
  });

  test('a request the host refuses is shown beside the input, with its message', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('runs-bad'), 'Bad');
    const view = visibleSessionView(page);

    await view.getByTestId('exec-run-command').fill('x'.repeat(100_001));
    await view.getByTestId('exec-run-command').press('Enter');
    await expect(view.getByTestId('exec-run-error')).toContainText('at most 100,000 characters');
    await expect(view.getByTestId('exec-run-row')).toHaveCount(0);
    // The command stays for the user to fix.
    await expect(view.getByTestId('exec-run-command')).not.toHaveValue('');
  });

  test('a large output reaches the card complete under flow control, and again when the card is reopened', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('runs-flood'), 'Flood');

    // ~4.1 MB: about twice the card's credit window (SCREEN_OUTPUT_CREDIT), so the stream must wait for xterm to parse
    // and give credit back.
    const { row, card } = await runCommand(page, 'seq 1 600000; echo flood-done');
    const runId = (await row.getAttribute('data-run-id'))!;
    await expect(row.getByTestId('exec-run-status')).toHaveText('exited 0', { timeout: 20_000 });
    await expect.poll(() => terminalText(card), { timeout: 20_000 }).toMatch(/^flood-done$/m);
    expect(await terminalText(card)).toMatch(/^600000$/m);
    const size = 4_088_906; // bytes of `seq 1 600000` plus "flood-done\n"
    await expect(row.getByTestId('exec-run-size')).toHaveText('3.8 MiB');
    expect(await parsedChars(page, runId)).toBeGreaterThanOrEqual(size);

    await card.getByTestId('exec-run-card-close').click();
    await expect(card).toHaveCount(0);
    await row.locator('.exec-run-open').click();
    await expect.poll(() => terminalText(card), { timeout: 20_000 }).toMatch(/^flood-done$/m);
    expect(await parsedChars(page, runId)).toBeGreaterThanOrEqual(size);
  });

  test('a watcher match of a run started outside the app shows as an event in its card and in the session', async ({ omni }) => {
    test.skip(omni.mode !== 'web', 'omni shell finds the host through the home; the Electron host keeps its own');
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('runs-watch'), 'Watch');
    const view = visibleSessionView(page);
    const sessionId = (await view.getAttribute('data-session-id'))!;

    const { run_id: runId } = omniShell(omni.home, {
      action: 'spawn',
      command: "echo building; echo 'ERROR: disk full'; echo done",
      session_id: sessionId,
      watch: [{ regex: 'ERROR: [a-z ]+', event: 'build-error', once: true }],
    });
    const row = view.locator(`[data-testid="exec-run-row"][data-run-id="${runId}"]`);
    await expect(row.getByTestId('exec-run-status')).toHaveText('exited 0');

    const message = view.getByTestId('exec-backlog-item');
    await expect(message).toHaveCount(1);
    await expect(message).toContainText('build-error');
    await expect(message).toContainText('ERROR: disk full');
    await expect(message).toHaveAttribute('data-delivered', 'false');
    await expect(message).toContainText('pending');

    // The message opens the run it came from.
    await message.getByTestId('exec-backlog-open').click();
    const card = view.locator(`[data-testid="exec-run-card"][data-run-id="${runId}"]`);
    await expect(card.locator('[data-testid="exec-run-notice"][data-event="build-error"]')).toHaveText(/ERROR: disk full/);
    await expect.poll(() => terminalText(card)).toBe('building\nERROR: disk full\ndone');
  });

  test('a run the host dies under is recovered: the row says so, the card keeps what it showed and follows the rerun', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('runs-recover'), 'Recover');

    // Long enough (about 6 s) that a loaded machine still kills the host while the first attempt runs.
    const { row, card } = await runCommand(page, 'for i in $(seq 1 20); do echo tick-$i; sleep 0.3; done');
    await expect.poll(() => terminalText(card)).toMatch(/^tick-2$/m);

    const restarted = omni.restartHost();
    await expect(page.getByTestId('connection-status')).toHaveText('Reconnecting…');
    await restarted;
    await expectConnected(page);

    await expect(row.getByTestId('exec-run-recovered')).toContainText('attempt 2');
    await expect(row.getByTestId('exec-run-status')).toHaveText('exited 0', { timeout: 20_000 });
    await expect(card.locator('[data-testid="exec-run-notice"][data-event="recovered"]')).toHaveCount(1);
    await expect.poll(() => terminalText(card)).toMatch(/^tick-20$/m);
    // The first attempt's output is kept before the rerun's: the run holds more than one whole attempt's 151 bytes.
    const size = Number.parseInt((await row.getByTestId('exec-run-size').textContent()) ?? '', 10);
    expect(size).toBeGreaterThan(151);
  });
});
