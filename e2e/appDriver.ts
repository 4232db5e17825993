import { expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Screenshots kept as artifacts of the run (test-results/screenshots/<name>.png). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const dir = join(__dirname, '../test-results/screenshots');
  mkdirSync(dir, { recursive: true });
  // Transitions finish first (a color-scheme switch fades Pico's buttons), so the shot shows the settled UI.
  await page.screenshot({ path: join(dir, `${name}.png`), animations: 'disabled' });
}

export async function expectConnected(page: Page): Promise<void> {
  await expect(page.getByTestId('connection-status')).toHaveText('Connected', { timeout: 15_000 });
}

export function sessionItem(page: Page, name: string): Locator {
  return page.getByTestId('session-item').filter({ has: page.locator('.session-name', { hasText: name }) });
}

/** Fills in the sidebar form and waits for the new session to be listed and selected. */
export async function createSession(page: Page, workspace: string, name: string): Promise<void> {
  await page.getByTestId('new-session-workspace').fill(workspace);
  await page.getByTestId('new-session-name').fill(name);
  await page.getByRole('button', { name: 'New session' }).click();
  await expect(sessionItem(page, name)).toBeVisible();
  await expect(visibleSessionView(page).getByTestId('session-title')).toHaveText(name);
}

export function visibleSessionView(page: Page): Locator {
  return page.locator('[data-testid="session-view"]:visible');
}

/** Opens a terminal in the shown session and waits until its shell has drawn something. */
export async function openTerminal(page: Page): Promise<Locator> {
  const view = visibleSessionView(page);
  const before = await view.getByTestId('terminal-card').count();
  await view.getByTestId('new-terminal').click();
  const card = view.getByTestId('terminal-card').nth(before);
  await expect(card).toBeVisible();
  await expect.poll(() => terminalText(card), { message: 'the shell prints a prompt' }).not.toBe('');
  return card;
}

/** The terminal's visible text as xterm's DOM renderer lays it out, trailing blanks trimmed. */
export async function terminalText(card: Locator): Promise<string> {
  const rows = await card.locator('.xterm-rows > div').allInnerTexts();
  return rows
    .map((row) => row.replace(/\u00a0/g, ' ').trimEnd())
    .join('\n')
    .trim();
}

/** Focuses the terminal and types a command line, like a user would. */
export async function runInTerminal(page: Page, card: Locator, command: string): Promise<void> {
  await card.locator('.terminal-screen').click();
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
}
