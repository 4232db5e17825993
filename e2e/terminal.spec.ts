import { createSession, expectConnected, openTerminal, runInTerminal, saveScreenshot, terminalText, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';

test.describe('terminal cards', () => {
  test('a terminal runs a command and shows its output', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('term-project'), 'Terminal session');

    const card = await openTerminal(page);
    await runInTerminal(page, card, 'echo hello');
    await expect.poll(() => terminalText(card)).toMatch(/^hello$/m);

    // Flow control bookkeeping the benchmark reads: every parsed character is counted per terminal.
    const id = await card.getAttribute('data-terminal-id');
    const parsed = await page.evaluate((terminalId) => {
      const stats = (window as { __omniTerminalStats?: Record<string, { bytesParsed: number }> }).__omniTerminalStats;
      return stats?.[terminalId!]?.bytesParsed ?? 0;
    }, id);
    expect(parsed).toBeGreaterThan(0);

    await saveScreenshot(page, 'session-terminal-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'session-terminal-dark');
  });

  test('output in UTF-8 beyond ASCII (accents, CJK, emoji) shows as the program wrote it', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('utf8'), 'UTF-8');
    const card = await openTerminal(page);
    // Octal escapes, so what crosses the pty is the program's own UTF-8 bytes, not what the keyboard typed.
    await runInTerminal(page, card, "printf 'out: caf\\303\\251 \\346\\227\\245\\346\\234\\254 \\360\\237\\231\\202 end\\n'");
    await expect.poll(() => terminalText(card)).toMatch(/^out: café 日本 🙂 ?end$/m);
  });

  test('a flood of output arrives complete under flow control', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('flood'), 'Flood');
    const card = await openTerminal(page);
    const id = await card.getAttribute('data-terminal-id');
    const parsed = (): Promise<number> =>
      page.evaluate((terminalId) => {
        const stats = (window as { __omniTerminalStats?: Record<string, { bytesParsed: number }> }).__omniTerminalStats;
        return stats?.[terminalId!]?.bytesParsed ?? 0;
      }, id);

    // ~7.9 MB with the pty's CRs: about four times the credit window (SCREEN_OUTPUT_CREDIT), so the host must pause
    // and resume the pty to deliver it all.
    await runInTerminal(page, card, 'seq 1 1000000; echo flood-$((1+1))-done');
    await expect.poll(() => terminalText(card), { timeout: 20_000 }).toMatch(/^flood-2-done$/m);
    expect(await terminalText(card)).toMatch(/^1000000$/m);
    expect(await parsed()).toBeGreaterThan(7_800_000);
  });

  test('cards keep their screen across views and come back after a reload', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('keep'), 'Keeper');
    const card = await openTerminal(page);
    await runInTerminal(page, card, 'echo marker-$((40+2))');
    await expect.poll(() => terminalText(card)).toContain('marker-42');

    await page.keyboard.press('Control+Shift+L');
    await expect(page.getByTestId('ledger-view')).toBeVisible();
    await page.getByTestId('tab-session').click();
    await expect(card).toBeVisible();
    expect(await terminalText(card)).toContain('marker-42');

    await page.reload();
    await expectConnected(page);
    const restored = visibleSessionView(page).getByTestId('terminal-card');
    await expect(restored).toHaveCount(1);
    await expect.poll(() => terminalText(restored)).toContain('marker-42');
  });

  test('the exit of the shell is shown and closing the card removes it', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('exit'), 'Exits');
    const card = await openTerminal(page);

    await runInTerminal(page, card, 'exit 3');
    await expect.poll(() => terminalText(card)).toContain('[process exited with code 3]');
    await expect(card.getByTestId('terminal-exited')).toHaveText('exited (3)');

    await card.getByRole('button', { name: /^Close terminal/ }).click();
    await expect(visibleSessionView(page).getByTestId('terminal-card')).toHaveCount(0);
  });

  test('Ctrl+Shift+T opens a terminal in the current session', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('shortcut'), 'Shortcut');
    await page.keyboard.press('Control+Shift+T');
    await expect(visibleSessionView(page).getByTestId('terminal-card')).toHaveCount(1);
  });
});
