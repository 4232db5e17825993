import { join } from 'node:path';
import { createSession, expectConnected, saveScreenshot, sessionItem } from './appDriver';
import { expect, test } from './fixtures';

test.describe('sessions', () => {
  test('a new session on a workspace folder appears in the sidebar under its folder', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await expect(page.getByTestId('host-home')).toContainText(omni.home);
    const workspace = omni.newWorkspace('alpha-project');

    await createSession(page, workspace, 'First session');

    const group = page.getByRole('region', { name: 'Workspace alpha-project' });
    await expect(group.getByTestId('session-item')).toHaveCount(1);
    await expect(sessionItem(page, 'First session').getByRole('button', { name: 'First session', exact: true })).toHaveAttribute('aria-current', 'true');
    await saveScreenshot(page, 'session-created-light');
  });

  test('a workspace folder that does not exist shows the host error under the field', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const missing = join(omni.scratch, 'no-such-folder');

    await page.getByTestId('new-session-workspace').fill(missing);
    await page.getByRole('button', { name: 'New session' }).click();

    const error = page.getByTestId('new-session-error');
    await expect(error).toBeVisible();
    await expect(error).toContainText('no-such-folder');
    await expect(page.getByTestId('new-session-workspace')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('session-item')).toHaveCount(0);
  });

  test('rename and close a session from the sidebar', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('beta'), 'Old name');

    await page.getByRole('button', { name: 'Rename session Old name' }).click();
    const input = page.getByRole('textbox', { name: 'New name' });
    await input.fill('New name');
    await input.press('Enter');
    await expect(sessionItem(page, 'New name')).toBeVisible();

    await page.getByRole('button', { name: 'Close session New name' }).click();
    await expect(sessionItem(page, 'New name')).toHaveCount(0);
    await page.getByRole('switch', { name: /Show closed/ }).check();
    await expect(sessionItem(page, 'New name')).toContainText('closed');
  });

  test('sessions survive a page reload and a host restart', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('gamma'), 'Persistent');

    await page.reload();
    await expectConnected(page);
    await expect(sessionItem(page, 'Persistent')).toBeVisible();
    // The token was moved out of the address bar into session storage, so the reload still got in.
    expect(page.url()).not.toContain('token=');

    await omni.restartHost();
    await expectConnected(page);
    await page.reload();
    await expectConnected(page);
    await expect(sessionItem(page, 'Persistent')).toBeVisible();
  });
});
