import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createSession, expectConnected, openTerminal, runInTerminal, saveScreenshot, sessionItem } from './appDriver';
import { expect, test } from './fixtures';

/** Whether a process is alive (signal 0 checks without touching it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Both themes at 1000x700, for the screenshots looked at before a change is done. */
async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1000, height: 700 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await saveScreenshot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('sessions and their workspace folders', () => {
  // A few seconds each on an idle machine; the room is for a shared, loaded one (a terminal's shell, two themes' shots).
  test.describe.configure({ timeout: 90_000 });

  test('closing a session with a live terminal asks first: Cancel (or Escape) keeps it running, Close stops it', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const workspace = omni.newWorkspace('busy');
    await createSession(page, workspace, 'Busy');
    const card = await openTerminal(page);
    // The shell says who it is, so the test can see it live on and then stop.
    await runInTerminal(page, card, 'echo $$ > shell.pid');
    const pidFile = join(workspace, 'shell.pid');
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', { message: 'the shell wrote its pid' }).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(alive(pid)).toBe(true);

    const closeButton = sessionItem(page, 'Busy').getByRole('button', { name: 'Close session Busy' });
    await closeButton.click();
    const dialog = page.getByRole('dialog', { name: 'Close “Busy”?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('close-session-what')).toContainText('1 terminal is still running in this session');
    await expect(dialog.getByRole('button', { name: 'Cancel' }), 'the safe answer has focus').toBeFocused();
    await screenshotBothThemes(page, 'close-session-asks');

    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(sessionItem(page, 'Busy')).toBeVisible();
    await expect(closeButton, 'focus goes back to the button that asked').toBeFocused();
    expect(alive(pid), 'Cancel stops nothing').toBe(true);

    await closeButton.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(sessionItem(page, 'Busy')).toBeVisible();
    expect(alive(pid), 'Escape stops nothing').toBe(true);

    await closeButton.click();
    await dialog.getByRole('button', { name: 'Close and stop it' }).click();
    await expect(sessionItem(page, 'Busy')).toHaveCount(0);
    await expect.poll(() => alive(pid), { message: 'the terminal’s shell is stopped' }).toBe(false);
  });

  test('a session with nothing running closes at once, without asking', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('idle'), 'Idle');
    await sessionItem(page, 'Idle').getByRole('button', { name: 'Close session Idle' }).click();
    await expect(sessionItem(page, 'Idle')).toHaveCount(0);
    await expect(page.getByTestId('close-session-dialog')).toHaveCount(0);
  });

  test('a workspace folder is picked by keyboard in the host’s folder browser', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const picker = join(omni.scratch, 'picker');
    omni.newWorkspace('picker/alpha');
    omni.newWorkspace('picker/beta/inner');

    const field = page.getByTestId('new-session-workspace');
    await field.fill(picker);
    await field.press('Tab');
    await expect(page.getByTestId('new-session-browse')).toBeFocused();
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Choose a workspace folder' });
    await expect(dialog.getByTestId('folder-picker-path')).toHaveText(picker);
    const entries = dialog.getByTestId('folder-picker-entry');
    await expect(entries).toHaveText(['▸ alpha', '▸ beta']);
    await expect(entries.first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(entries.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('folder-picker-path')).toHaveText(join(picker, 'beta'));
    await expect(entries).toHaveText(['▸ inner']);
    await expect(entries.first()).toBeFocused();
    await screenshotBothThemes(page, 'folder-picker');
    // Backspace goes up (to the folder come from), Enter goes back down: the keyboard alone walks the tree.
    await page.keyboard.press('Backspace');
    await expect(dialog.getByTestId('folder-picker-path')).toHaveText(picker);
    await expect(entries.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('folder-picker-path')).toHaveText(join(picker, 'beta'));

    const use = dialog.getByRole('button', { name: 'Use “beta”' });
    for (let i = 0; i < 5 && !(await use.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(use).toBeFocused();
    await page.keyboard.press('Enter');

    await expect(dialog).toBeHidden();
    await expect(field).toHaveValue(join(picker, 'beta'));
    await expect(page.getByTestId('new-session-browse'), 'focus comes back to Browse').toBeFocused();
  });

  test('a recent workspace fills the form; one deleted since is marked missing', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const gone = omni.newWorkspace('gone-since');
    await createSession(page, gone, 'Old');
    rmSync(gone, { recursive: true });
    const one = omni.newWorkspace('recent-one');
    await createSession(page, one, 'One');
    await createSession(page, omni.newWorkspace('recent-two'), 'Two');

    const recent = page.getByTestId('recent-workspace');
    await expect(recent).toHaveText(['recent-two', 'recent-one', 'gone-sincemissing']);
    await expect(recent.nth(2)).toHaveAttribute('data-missing', 'true');
    await screenshotBothThemes(page, 'recent-workspaces');

    await page.getByRole('button', { name: `Use ${one}`, exact: true }).click();
    await expect(page.getByTestId('new-session-workspace')).toHaveValue(one);
    await page.getByTestId('new-session-name').fill('One again');
    await page.getByRole('button', { name: 'New session' }).click();
    await expect(sessionItem(page, 'One again')).toBeVisible();
    await expect(recent.first(), 'the folder just used comes first').toHaveText('recent-one');
  });

  test('typing a missing folder offers to create it, and creates exactly that folder on the click', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const field = page.getByTestId('new-session-workspace');

    // A path that climbs with ".." is refused when the user asks to create it: nothing is made.
    const climbing = join(omni.scratch, 'a') + '/../../escaped';
    await field.fill(climbing);
    await page.getByTestId('create-folder').click();
    await expect(page.getByTestId('create-folder-error')).toContainText('".." segment');
    expect(existsSync(join(omni.scratch, '..', 'escaped'))).toBe(false);

    const wanted = join(omni.scratch, 'new', 'deep', 'project');
    await field.fill(wanted);
    const offer = page.getByTestId('missing-folder');
    await expect(offer).toContainText(`${wanted} does not exist.`);
    expect(existsSync(wanted), 'nothing is made before the click').toBe(false);
    await screenshotBothThemes(page, 'missing-folder-offer');

    await offer.getByRole('button', { name: 'Create this folder' }).click();
    await expect(page.getByTestId('folder-created')).toHaveText(`Created ${join(omni.scratch, 'new')}, ${join(omni.scratch, 'new', 'deep')}, ${wanted}.`);
    await expect(offer).toHaveCount(0);
    expect(existsSync(wanted)).toBe(true);

    await page.getByTestId('new-session-name').fill('Fresh');
    await page.getByRole('button', { name: 'New session' }).click();
    await expect(sessionItem(page, 'Fresh')).toBeVisible();
  });
});
