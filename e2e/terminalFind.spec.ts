import type { Locator } from '@playwright/test';
import { createSession, expectConnected, openTerminal, runInTerminal, saveScreenshot, terminalText } from './appDriver';
import { expect, test } from './fixtures';

/** The find bar's "n of m", as numbers (null while it says something else). */
async function countOf(card: Locator): Promise<{ at: number; of: number } | null> {
  const match = /^(\d+) of (\d+)$/.exec((await card.getByTestId('terminal-find-count').textContent()) ?? '');
  return match ? { at: Number(match[1]), of: Number(match[2]) } : null;
}

test.describe('terminal find', () => {
  // A host, a shell and some forty steps: under the load of parallel helpers that is more than 30 s.
  test.describe.configure({ timeout: 60_000 });

  test('counts matches, steps through them both ways, matches case and regular expressions, and hands focus back', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('find-bar'), 'Find');
    const card = await openTerminal(page);
    // The words are put together by the shell, so the typed command lines themselves never match "needle".
    await runInTerminal(page, card, 'for w in Nee nee NEE; do echo ${w}dle-4$((1+1)); done; echo nee""dle-7');
    await expect.poll(() => terminalText(card)).toMatch(/^needle-7$/m);

    await page.keyboard.press('Control+Shift+F');
    const input = card.getByRole('searchbox');
    await expect(input).toBeFocused();
    const count = card.getByTestId('terminal-find-count');

    // As typed: every match counted, case ignored by default.
    await input.fill('needle');
    await expect(count).toHaveText(/^[1-4] of 4$/);
    const first = (await countOf(card))!;

    // Enter and the ↓ button go forwards, Shift+Enter and ↑ back, wrapping around.
    await input.press('Enter');
    await expect.poll(() => countOf(card)).toEqual({ at: (first.at % 4) + 1, of: 4 });
    await input.press('Shift+Enter');
    await expect.poll(() => countOf(card)).toEqual(first);
    await card.getByTestId('terminal-find-next').click();
    await expect.poll(() => countOf(card)).toEqual({ at: (first.at % 4) + 1, of: 4 });
    await card.getByTestId('terminal-find-previous').click();
    await expect.poll(() => countOf(card)).toEqual(first);
    await expect(card.locator('.xterm-selection > div')).not.toHaveCount(0);

    // Match case: only the two lowercase lines.
    const caseToggle = card.getByTestId('terminal-find-case');
    await caseToggle.click();
    await expect(caseToggle).toHaveAttribute('aria-pressed', 'true');
    await expect(count).toHaveText(/^[12] of 2$/);
    await caseToggle.press('Space');
    await expect(caseToggle).toHaveAttribute('aria-pressed', 'false');
    await expect(count).toHaveText(/^[1-4] of 4$/);

    // A regular expression: the three "-42" lines; a broken one says what is wrong instead of searching.
    await card.getByTestId('terminal-find-regex').click();
    await input.fill('needle-4\\d');
    await expect(count).toHaveText(/^[1-3] of 3$/);
    await input.fill('needle-(');
    await expect(card.getByTestId('terminal-find-error')).toContainText('Not a valid regular expression');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(count).toHaveText('');
    await saveScreenshot(page, 'terminal-find-regex-error');
    await input.fill('needle-(7|9)');
    await expect(card.getByTestId('terminal-find-error')).toHaveCount(0);
    await expect(input).not.toHaveAttribute('aria-invalid');
    await expect(count).toHaveText('1 of 1');
    await saveScreenshot(page, 'terminal-find-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'terminal-find-dark');

    // Nothing matches: said, not silent.
    await input.fill('haystack');
    await expect(count).toHaveText('No matches');
    await expect(input).toHaveAttribute('aria-invalid', 'true');

    // Escape clears the highlights and the keys go to the shell again.
    await input.fill('needle');
    await expect(count).toHaveText(/ of 4$/);
    await input.press('Escape');
    await expect(card.locator('.xterm-helper-textarea')).toBeFocused();
    await expect(count).toHaveText('');
    await expect(card.locator('.xterm-selection > div')).toHaveCount(0);
    await page.keyboard.type('echo back-$((40+2))');
    await page.keyboard.press('Enter');
    await expect.poll(() => terminalText(card)).toMatch(/^back-42$/m);
  });
});
