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
    await expect(view.getByTestId('ledger-verify-result')).toHaveText(/^Intact: \d+ entries, head [0-9a-f]{16}…$/);

    await saveScreenshot(page, 'ledger-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'ledger-dark');
  });
});
