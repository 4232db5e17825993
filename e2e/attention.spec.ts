import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSession, expectConnected, openTerminal, saveScreenshot, sessionItem, visibleSessionView } from './appDriver';
import { expect, test, type OmniApp } from './fixtures';

/**
 * The window in the background, as a user away from it would have it, and every desktop notification the page
 * makes kept for the test (each is also made for real: the context grants the permission).
 */
async function backgroundWindowWithNotifications(page: Page): Promise<void> {
  await page.context().grantPermissions(['notifications'], { origin: new URL(page.url()).origin });
  await page.addInitScript(() => {
    const Real = window.Notification;
    const made: { title: string; body: string; click(): void }[] = [];
    (window as unknown as { __notices: typeof made }).__notices = made;
    class Captured extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        made.push({ title, body: options?.body ?? '', click: () => this.onclick?.(new Event('click')) });
      }
    }
    window.Notification = Captured;
    Document.prototype.hasFocus = () => false;
  });
  await page.reload();
  await expectConnected(page);
}

const notices = (page: Page) => page.evaluate(() => (window as unknown as { __notices: { title: string; body: string }[] }).__notices.map(({ title, body }) => ({ title, body })));

/** Starts the scaffolder in a new session and waits for its consent card (it asks to write files). */
async function scaffolderAsking(omni: OmniApp, name: string) {
  const { page } = omni;
  await createSession(page, omni.newWorkspace(name.toLowerCase()), name);
  const session = visibleSessionView(page);
  await session.getByTestId('agent-select').selectOption('scaffolder');
  await session.getByTestId('agent-prompt').fill('scaffold demo-lib');
  await session.getByTestId('agent-start').click();
  const card = session.getByTestId('consent-card');
  await expect(card).toHaveCount(1, { timeout: 15_000 });
  return { session, card };
}

test.describe('attention', () => {
  test('a waiting consent request: a sidebar badge, a count in the title and on the Session tab, a notification that goes to the card', async ({ omni }) => {
    // Starting a WASM agent takes seconds, and tens of them on a 2-core machine under load (seen at load 30).
    test.setTimeout(90_000);
    const { page } = omni;
    await expectConnected(page);
    await backgroundWindowWithNotifications(page);
    const { card } = await scaffolderAsking(omni, 'Asks');
    const promptId = await card.getAttribute('data-prompt-id');

    await expect(sessionItem(page, 'Asks').getByTestId('session-waiting')).toHaveText('1');
    await expect(page).toHaveTitle('(1) Omniscient Shell');
    await expect(page.getByTestId('tab-consent-waiting')).toHaveText('1');
    await expect.poll(() => notices(page)).toEqual([{ title: 'Permission needed in Asks', body: 'scaffolder asks for files.write' }]);

    // Away from the card (another session, another view), the notification brings the user back to it, focused.
    await createSession(page, omni.newWorkspace('elsewhere'), 'Elsewhere');
    await page.getByTestId('tab-ledger').click();
    await page.evaluate(() => (window as unknown as { __notices: { click(): void }[] }).__notices[0].click());
    await expect(page.getByTestId('tab-session')).toHaveAttribute('aria-selected', 'true');
    const focused = page.locator(`[data-testid="consent-card"][data-prompt-id="${promptId}"]`);
    await expect(focused).toBeFocused();
    await expect(visibleSessionView(page).getByTestId('session-title')).toHaveText('Asks');
    await saveScreenshot(page, 'attention-waiting');

    // The sidebar badge does the same from the keyboard.
    await sessionItem(page, 'Elsewhere').locator('.session-select').click();
    await sessionItem(page, 'Asks').getByTestId('session-waiting').press('Enter');
    await expect(focused).toBeFocused();

    await focused.getByTestId('consent-deny').click();
    await expect(sessionItem(page, 'Asks').getByTestId('session-waiting')).toHaveCount(0);
    await expect(page).toHaveTitle('Omniscient Shell');
    await expect(page.getByTestId('tab-consent-waiting')).toHaveCount(0);
  });

  test.describe('with a 12 s consent deadline', () => {
    test.use({ hostEnv: { OMNI_CONSENT_TIMEOUT: '12s' } });

    test('a request is still waiting after the page was closed past its old deadline, and the page that opens again can allow it', async ({ omni }) => {
      test.skip(omni.mode !== 'web', 'closing the only window quits the desktop app');
      // Starting a WASM agent takes seconds on a busy machine, and the test waits out the 12 s on purpose.
      test.setTimeout(90_000);
      const { page } = omni;
      await expectConnected(page);
      const { card } = await scaffolderAsking(omni, 'Patient');
      const promptId = await card.getAttribute('data-prompt-id');
      // The budget runs while this page shows the card; long enough that the reopened page can still answer on a
      // loaded machine, short enough to wait out.
      const oldDeadline = Date.now() + 12_000;
      const context = page.context();
      // The page keeps its token in its own tab storage: a new tab opens the address `omni serve` printed.
      const url = `${new URL(page.url()).origin}/?token=${readFileSync(join(omni.home, 'auth-token'), 'utf8').trim()}`;
      await page.close();

      // Nobody watches now: the host's clock for the request is paused. Wait out what would have been its deadline.
      await expect.poll(() => Date.now(), { timeout: 16_000, intervals: [250] }).toBeGreaterThan(oldDeadline + 500);

      const reopened = await context.newPage();
      await reopened.goto(url);
      await expectConnected(reopened);
      await expect(sessionItem(reopened, 'Patient').getByTestId('session-waiting')).toHaveText('1');
      await sessionItem(reopened, 'Patient').getByTestId('session-waiting').click();
      const again = reopened.locator(`[data-testid="consent-card"][data-prompt-id="${promptId}"]`);
      await expect(again).toBeFocused();
      await again.getByTestId('consent-allow-for').click();
      await expect(again).toHaveCount(0);
      // The run got its answer: it goes on to write the scaffold.
      await expect(visibleSessionView(reopened).getByTestId('run-card').first()).toHaveAttribute('data-state', 'Terminated', { timeout: 15_000 });
      await expect(visibleSessionView(reopened).getByTestId('run-card').first()).toHaveAttribute('data-outcome', 'completed');
    });
  });

  test('the host gone: a banner across the page, controls off, a pending question kept on screen; all back once it is', async ({ omni }) => {
    // A host restart plus the reconnect's backoff takes several seconds, and tens of them on a busy machine.
    test.setTimeout(90_000);
    const { page } = omni;
    await expectConnected(page);
    const { card } = await scaffolderAsking(omni, 'Offline');
    await openTerminal(page);
    const banner = page.getByTestId('host-down-banner');
    await expect(banner).toHaveCount(0);

    const restarted = omni.restartHost();
    await expect(banner).toHaveText(/Host disconnected — reconnecting…/);
    // Live state is frozen, not cleared: the terminal's card is still shown while the host is away.
    await expect(visibleSessionView(page).getByTestId('terminal-card')).toHaveCount(1);
    // So is a question the agent asked: still on screen, its answers off until the host is back.
    await expect(card).toBeVisible();
    await expect(card.getByTestId('consent-deny')).toBeDisabled();
    await expect(page.getByTestId('tab-agents')).toBeDisabled();
    await expect(visibleSessionView(page).getByTestId('new-terminal')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'New session' })).toBeDisabled();
    await saveScreenshot(page, 'attention-host-down');
    await restarted;

    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    await expectConnected(page);
    await expect(page.getByTestId('tab-agents')).toBeEnabled();
    // Resynced: the shell that died with the host leaves, and a new one starts.
    await expect(visibleSessionView(page).getByTestId('terminal-card')).toHaveCount(0);
    // The agent that asked died with the host: its question leaves with it.
    await expect(card).toHaveCount(0);
    await openTerminal(page);
  });
});
