import type { Locator, Page } from '@playwright/test';
import { createSession, openTerminal, saveScreenshot, terminalText, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';

/** expectConnected's wait, with room for a host and page that start slowly on a loaded machine. */
async function expectConnected(page: Page): Promise<void> {
  await expect(page.getByTestId('connection-status')).toHaveText('Connected', { timeout: 30_000 });
}

const palette = (page: Page): Locator => page.getByRole('dialog', { name: 'Command palette' });
const paletteInput = (page: Page): Locator => palette(page).getByRole('combobox');

/** The option the combobox points at (aria-activedescendant): what Enter would run. */
async function activeOption(page: Page): Promise<Locator> {
  const id = await paletteInput(page).getAttribute('aria-activedescendant');
  expect(id, 'the combobox names its active option').toBeTruthy();
  return page.locator(`[id="${id}"]`);
}

/** Types a command line into the terminal that has the keyboard (no click: the test is about where focus is). */
async function typeInShell(page: Page, card: Locator, command: string, expected: string): Promise<void> {
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(card), { message: `the shell ran ${command}` }).toContain(expected);
}

test.describe('command palette', () => {
  // Each test starts a host, a page and most a shell: seconds on an idle machine, but at the load averages of 15-25
  // that the shared CI machine sees, page load plus a shell's first prompt alone took 20 s of the default 30.
  test.describe.configure({ timeout: 60_000 });

  test('opens with Ctrl+Shift+P and F1 from inside a terminal, where Ctrl+K stays the shell\'s; Ctrl+K opens it elsewhere; Escape gives the keyboard back', async ({ omni }) => {
    const { page } = omni;
    await page.setViewportSize({ width: 1000, height: 700 });
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('keys'), 'Keys');
    const card = await openTerminal(page);
    await card.locator('.terminal-screen').click();

    const keys: [string, string][] = [
      ['Control+Shift+P', '>'],
      ['F1', '>'],
    ];
    for (const [index, [key, query]] of keys.entries()) {
      await page.keyboard.press(key);
      await expect(palette(page)).toBeVisible();
      await expect(palette(page)).toHaveAttribute('aria-modal', 'true');
      await expect(paletteInput(page)).toBeFocused();
      await expect(paletteInput(page)).toHaveValue(query);
      // The key reached the palette only: nothing of it was typed into the shell behind.
      await page.keyboard.press('Escape');
      await expect(palette(page)).toBeHidden();
      await typeInShell(page, card, `echo back-$((${index} + 40))`, `back-${index + 40}`);
    }
    // In the shell, Ctrl+K is readline's kill-to-end-of-line: the palette stays shut and the line is cut.
    await page.keyboard.type('echo kept; echo cut-off');
    for (let i = 0; i < 'echo cut-off'.length; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+k');
    await expect(palette(page)).toBeHidden();
    await page.keyboard.press('Enter');
    await expect.poll(() => terminalText(card)).toMatch(/^kept$/m);
    expect(await terminalText(card)).not.toMatch(/^cut-off$/m);
    // Anywhere else Ctrl+K opens the switcher, and its hint says how to get commands only.
    await visibleSessionView(page).getByTestId('session-title').click();
    await page.keyboard.press('Control+k');
    await expect(palette(page)).toBeVisible();
    await expect(paletteInput(page)).toHaveValue('');
    await expect(palette(page).getByTestId('palette-hint')).toContainText('type > for commands only');
    await saveScreenshot(page, 'palette-1000x700-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'palette-1000x700-dark');
    // The page behind is out of reach while it is up: Tab stays in the search field.
    await page.keyboard.press('Tab');
    await expect(paletteInput(page)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(palette(page)).toBeHidden();
    await card.locator('.terminal-screen').click();
    await typeInShell(page, card, 'echo after-$((6 * 7))', 'after-42');
  });

  test('"new term" finds New terminal (with its shortcut), and Enter opens one that takes the keyboard', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('newterm'), 'New term');
    const view = visibleSessionView(page);
    await expect(view.getByTestId('terminal-card')).toHaveCount(0);

    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('new term');
    const option = await activeOption(page);
    await expect(option).toHaveAttribute('data-id', 'terminal.new');
    await expect(option).toContainText('Ctrl+Shift+T');
    // The letters that matched are marked: "New" and "term" of "New terminal".
    await expect(option.locator('mark')).toHaveText(['New', 'term']);
    await page.keyboard.press('Enter');

    await expect(palette(page)).toBeHidden();
    const card = view.getByTestId('terminal-card');
    await expect(card).toHaveCount(1);
    await expect.poll(() => terminalText(card), { message: 'the shell prints a prompt' }).not.toBe('');
    await typeInShell(page, card, 'echo from-$((100 + 1))-palette', 'from-101-palette');
  });

  test('switches sessions by typing part of a name, also from the ledger', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('alpha'), 'Alpha project');
    await createSession(page, omni.newWorkspace('beta'), 'Beta service');

    // Nothing typed: the other session comes first, so Ctrl+K, Enter goes back to it.
    await page.keyboard.press('Control+k');
    const first = await activeOption(page);
    await expect(first).toHaveAttribute('data-kind', 'session');
    await expect(first).toContainText('Alpha project');
    await expect(first).toContainText('workspaces/alpha');
    await page.keyboard.type('alp');
    await expect(await activeOption(page)).toContainText('Alpha project');
    await page.keyboard.press('Enter');
    await expect(visibleSessionView(page).getByTestId('session-title')).toHaveText('Alpha project');

    await page.keyboard.press('Control+Shift+L');
    await expect(page.getByTestId('ledger-view')).toBeVisible();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('serv');
    await expect(await activeOption(page)).toContainText('Beta service');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ledger-view')).toBeHidden();
    await expect(visibleSessionView(page).getByTestId('session-title')).toHaveText('Beta service');
  });

  test('opens the ledger and runs Verify, by keyboard alone', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('ledger'), 'Ledger check');

    await page.keyboard.press('F1');
    await page.keyboard.type('ledger');
    await expect(await activeOption(page)).toHaveAttribute('data-id', 'view.ledger');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ledger-view')).toBeVisible();
    // The keyboard is on the Ledger tab, where choosing it by hand leaves it.
    await expect(page.getByTestId('tab-ledger')).toBeFocused();

    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('verify');
    await expect(await activeOption(page)).toHaveAttribute('data-id', 'ledger.verify');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ledger-verify-result')).toHaveText(/^(Intact: \d+ entries|Chain consistent, unsigned: \d+ entries)/, { timeout: 20_000 });

    // Export opens the ledger's own Export form, with the keyboard in its first field.
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('export');
    await expect(await activeOption(page)).toHaveAttribute('data-id', 'ledger.export');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ledger-export-session')).toBeFocused();
  });

  test('a command that cannot run now is listed disabled with the reason, and Enter leaves it be', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    // A fresh home: no session yet, so nothing to open a terminal in.
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('new terminal');
    const option = palette(page).locator('[data-id="terminal.new"]');
    await expect(option).toHaveAttribute('aria-disabled', 'true');
    await expect(option.getByTestId('palette-reason')).toHaveText('Select a session first');
    // Enter on it does nothing: the palette stays, no terminal opens.
    await expect(await activeOption(page)).toHaveAttribute('data-id', 'terminal.new');
    await page.keyboard.press('Enter');
    await expect(palette(page)).toBeVisible();
    await expect(page.getByTestId('terminal-card')).toHaveCount(0);

    // What can run, runs: "New session…" brings the keyboard to the form's folder field.
    await page.keyboard.press('Control+a');
    await page.keyboard.type('new session');
    await expect(await activeOption(page)).toHaveAttribute('data-id', 'session.new');
    await page.keyboard.press('Enter');
    await expect(palette(page)).toBeHidden();
    await expect(page.getByTestId('new-session-workspace')).toBeFocused();
  });
});
