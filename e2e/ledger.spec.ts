import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSession, expectConnected, openTerminal, saveScreenshot } from './appDriver';
import { expect, test } from './fixtures';

test.describe('ledger', () => {
  test('shows the session.create and terminal.open events, live, newest first', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('audited'), 'Audited');

    // Open the ledger first, so the terminal.open entry has to arrive through the live tail.
    await page.getByTestId('tab-ledger').click();
    const view = page.getByTestId('ledger-view');
    await expect(view.locator('[data-testid="ledger-row"][data-type="session.create"]')).toHaveCount(1);

    await page.getByTestId('tab-session').click();
    await openTerminal(page);
    await page.getByTestId('tab-ledger').click();

    const rows = view.getByTestId('ledger-row');
    await expect(rows.filter({ has: page.locator('.ledger-type', { hasText: /^terminal\.open$/ }) })).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-type', 'terminal.open');

    // Filters: by type here, by session on the host.
    await view.getByTestId('ledger-type-filter').fill('session');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-type', 'session.create');
    await rows.first().getByRole('button').press('Enter');
    await expect(view.locator('.ledger-details pre')).toContainText('"workspace"');
    await view.getByTestId('ledger-type-filter').fill('');
    await view.getByTestId('ledger-session-filter').selectOption({ label: 'Audited' });
    await expect(rows.filter({ has: page.locator('.ledger-type', { hasText: /^host\./ }) })).toHaveCount(0);
    await expect(rows).toHaveCount(2);

    // Verify re-checks the hash chain on the host: this fresh ledger is intact.
    await view.getByTestId('ledger-verify').click();
    await expect(view.getByTestId('ledger-verify-result')).toHaveText(/^(Intact: \d+ entries, head [0-9a-f]{16}…, last signed checkpoint at seq \d+|Chain consistent, unsigned: \d+ entries, head [0-9a-f]{16}…; no signed checkpoint, so this proves nothing about who wrote it)$/);

    await saveScreenshot(page, 'ledger-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'ledger-dark');
  });

  test('Export writes a file into the home that verifies offline, with the chosen payloads withheld; Escape closes the panel', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('exported'), 'Exported');
    await page.getByTestId('tab-ledger').click();
    const view = page.getByTestId('ledger-view');

    await view.getByTestId('ledger-export').click();
    const panel = view.getByTestId('ledger-export-panel');
    // The panel opens with the keyboard in it; Escape closes it again.
    await expect(panel.getByTestId('ledger-export-session')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);

    await view.getByTestId('ledger-export').click();
    await panel.getByTestId('ledger-export-types').fill('session.*');
    await panel.getByTestId('ledger-export-start').click();
    const file = (await panel.getByTestId('ledger-export-file').textContent())!;
    expect(file.startsWith(join(omni.home, 'exports'))).toBe(true);
    await expect(panel.getByTestId('ledger-export-done')).toContainText(/Exported \d+ entries \(1 withheld, 0 elided/);

    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type?: string; payload?: unknown });
    expect(lines.filter((line) => line.type === 'session.create').map((line) => line.payload)).toEqual([null]);
    const verified = spawnSync(process.execPath, ['dist/cli/omni.cjs', 'ledger', 'verify', '--file', file], { encoding: 'utf8' });
    // Signed where the host had a keychain (exit 0); only chain-consistent without one (exit 4, never "intact").
    expect(verified.stdout).toMatch(/^(intact|chain consistent, unsigned): \d+ entries, head [0-9a-f]{64}/);
    expect(verified.status).toBe(verified.stdout.startsWith('intact') ? 0 : 4);
  });
});
