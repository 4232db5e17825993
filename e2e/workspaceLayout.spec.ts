import type { Locator, Page } from '@playwright/test';
import { createSession, expectConnected, openTerminal, runInTerminal, saveScreenshot, terminalText, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';

/** The shell's own idea of its height (`stty size`), read back from the screen. */
async function shellRows(page: Page, card: Locator): Promise<number> {
  await runInTerminal(page, card, 'clear; stty size | sed "s/^/size:/"');
  let size: RegExpExecArray | null = null;
  await expect.poll(async () => (size = /^size:(\d+) \d+$/m.exec(await terminalText(card))) !== null).toBe(true);
  return Number(size![1]);
}

/** Whether the element is wholly inside the window (nothing of it below or right of the fold). */
async function inView(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const viewport = page.viewportSize()!;
  return !!box && box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width;
}

test.describe('session page layout', () => {
  test('at 1000x700 a terminal pane shows vim whole, status line included', async ({ omni }) => {
    const { page } = omni;
    await page.setViewportSize({ width: 1000, height: 700 });
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('vim-fit'), 'Vim');
    const card = await openTerminal(page);
    // The screen's rows as fitted to the pane: vim sizes itself from the pty, which the card resized to match.
    const screenRows = card.locator('.xterm-rows > div');
    const rows = await screenRows.count();

    await runInTerminal(page, card, 'vim -u NONE -N -c "set laststatus=2" status-line-marker.txt');
    // The status line is the screen's last row but one (the command line is the last): vim drew to the pane's height.
    await expect.poll(() => screenRows.nth(rows - 2).innerText()).toContain('status-line-marker.txt');
    expect(await inView(page, screenRows.nth(rows - 2))).toBe(true);
    expect(await inView(page, screenRows.nth(rows - 1))).toBe(true);
    // Nothing makes the page scroll sideways (a hidden tooltip one line long once made it 2,600 px wide).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1000);
    await saveScreenshot(page, 'layout-vim-1000x700-light');
    await page.keyboard.type(':q!');
    await page.keyboard.press('Enter');
  });

  test('the dock is resized from the keyboard on its splitter, and the size is remembered after a reload', async ({ omni }) => {
    const { page } = omni;
    await page.setViewportSize({ width: 1000, height: 700 });
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('resize'), 'Resize');
    const card = await openTerminal(page);
    const screenRows = card.locator('.xterm-rows > div');
    const rowsBefore = await screenRows.count();
    const view = visibleSessionView(page);
    const splitter = view.getByTestId('dock-splitter');
    await expect(splitter).toHaveAttribute('role', 'separator');
    const before = Number(await splitter.getAttribute('aria-valuenow'));
    const heightBefore = (await card.boundingBox())!.height;

    await splitter.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 10));
    await expect.poll(async () => (await card.boundingBox())!.height).toBeGreaterThan(heightBefore + 40);
    // The terminal refits to its taller pane and tells the shell.
    await expect.poll(() => screenRows.count()).toBeGreaterThan(rowsBefore + 2);
    const rowsAfter = await screenRows.count();
    await expect.poll(() => shellRows(page, card)).toBe(rowsAfter);
    const heightAfter = (await card.boundingBox())!.height;

    await page.reload();
    await expectConnected(page);
    const restored = visibleSessionView(page);
    await expect(restored.getByTestId('dock-splitter')).toHaveAttribute('aria-valuenow', String(before + 10));
    const restoredCard = restored.getByTestId('terminal-card');
    await expect(restoredCard).toBeVisible();
    await expect.poll(async () => Math.round((await restoredCard.boundingBox())!.height)).toBe(Math.round(heightAfter));
  });

  test('a folded panel stays folded after a reload, by button and by keyboard', async ({ omni }) => {
    const { page } = omni;
    await page.setViewportSize({ width: 1000, height: 700 });
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('fold'), 'Fold');
    const view = visibleSessionView(page);
    const grants = view.getByTestId('side-panel-toggle-grants');
    await expect(grants).toHaveAttribute('aria-expanded', 'true');
    await expect(view.getByTestId('grants-panel')).toBeVisible();
    await grants.focus();
    await page.keyboard.press('Enter');
    await expect(grants).toHaveAttribute('aria-expanded', 'false');
    await expect(view.getByTestId('grants-panel')).toBeHidden();

    // The whole side column folds with Ctrl+Shift+B, and the conversation column takes its width.
    const mainWidth = (await view.getByTestId('workspace-main').boundingBox())!.width;
    await page.keyboard.press('Control+Shift+B');
    await expect(view.getByTestId('workspace-side')).toBeHidden();
    await expect(view.getByTestId('side-toggle')).toHaveAttribute('aria-expanded', 'false');
    expect((await view.getByTestId('workspace-main').boundingBox())!.width).toBeGreaterThan(mainWidth + 100);

    await page.reload();
    await expectConnected(page);
    const restored = visibleSessionView(page);
    await expect(restored.getByTestId('session-title')).toHaveText('Fold');
    await expect(restored.getByTestId('workspace-side')).toBeHidden();
    await restored.getByTestId('side-toggle').click();
    await expect(restored.getByTestId('workspace-side')).toBeVisible();
    await expect(restored.getByTestId('side-panel-toggle-grants')).toHaveAttribute('aria-expanded', 'false');
    await expect(restored.getByTestId('grants-panel')).toBeHidden();
  });

  test('tabs switch between terminals, and a split shows two side by side', async ({ omni }) => {
    const { page } = omni;
    await page.setViewportSize({ width: 1000, height: 700 });
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('tabs'), 'Tabs');
    const first = await openTerminal(page);
    await runInTerminal(page, first, 'echo first-$((1+1))');
    await expect.poll(() => terminalText(first)).toMatch(/^first-2$/m);
    const second = await openTerminal(page);
    await runInTerminal(page, second, 'echo second-$((2+2))');
    await expect.poll(() => terminalText(second)).toMatch(/^second-4$/m);
    // The newest terminal is in front, the other behind its tab.
    await expect(first).toBeHidden();

    const view = visibleSessionView(page);
    const tabs = view.getByTestId('dock-tab');
    await expect(tabs).toHaveCount(3); // two terminals and the runs
    await tabs.nth(0).click();
    await expect(first).toBeVisible();
    await expect(second).toBeHidden();
    expect(await terminalText(first)).toMatch(/^first-2$/m);
    // Arrow keys move along the tabs.
    await page.keyboard.press('ArrowRight');
    await expect(second).toBeVisible();
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(tabs.nth(1)).toBeFocused();

    await view.getByTestId('dock-split').click();
    await expect(first).toBeVisible();
    await expect(second).toBeVisible();
    const left = (await second.boundingBox())!;
    const right = (await first.boundingBox())!;
    expect(Math.abs(left.y - right.y)).toBeLessThan(2);
    expect(left.x + left.width).toBeLessThanOrEqual(right.x);
    expect(await inView(page, first)).toBe(true);
    expect(await inView(page, second)).toBe(true);
    // Both halves are live terminals.
    await runInTerminal(page, first, 'echo right-$((3+3))');
    await expect.poll(() => terminalText(first)).toMatch(/^right-6$/m);

    // The split's splitter moves with the keyboard too.
    const splitSplitter = view.getByTestId('dock-split-splitter');
    const ratio = Number(await splitSplitter.getAttribute('aria-valuenow'));
    await splitSplitter.focus();
    await page.keyboard.press('ArrowRight');
    await expect(splitSplitter).toHaveAttribute('aria-valuenow', String(ratio + 5));
    await expect.poll(async () => (await second.boundingBox())!.width).toBeGreaterThan(left.width + 20);
  });

  test('the runs list is a dock tab, and a run row is one line without a chip per sandbox limit', async ({ omni }) => {
    const { page } = omni;
    await page.setViewportSize({ width: 1000, height: 700 });
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('chips'), 'Chips');
    const view = visibleSessionView(page);
    // No terminal yet: the runs list is the dock's tab in front.
    await expect(view.getByTestId('dock-tab').filter({ hasText: 'Runs' })).toHaveAttribute('aria-selected', 'true');
    await view.getByTestId('exec-run-command').fill('true');
    await view.getByTestId('exec-run-command').press('Enter');
    const row = view.getByTestId('exec-run-row').first();
    await expect(row.getByTestId('exec-run-status')).toHaveText('exited 0');
    // The user's own command runs as asked: one quiet 'no sandbox', no limit chips, and the row fits the pane.
    await expect(row).toContainText('no sandbox');
    await expect(row.getByTestId('exec-run-limit')).toHaveCount(0);
    expect(await inView(page, row)).toBe(true);
    const box = (await row.boundingBox())!;
    expect(box.height).toBeLessThan(60);
  });

  test('screenshots of the session page, light and dark, at 1440x900 and 1000x700', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('shots'), 'Layout');
    const card = await openTerminal(page);
    await runInTerminal(page, card, 'ls -la /');
    await expect.poll(() => terminalText(card)).toContain('usr');
    for (const [width, height] of [
      [1440, 900],
      [1000, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await expect(card).toBeVisible();
        expect(await inView(page, visibleSessionView(page).getByTestId('dock'))).toBe(true);
        await saveScreenshot(page, `layout-session-${width}x${height}-${scheme}`);
      }
    }
  });
});
