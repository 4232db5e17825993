import { createSession, expectConnected, openTerminal, runInTerminal, terminalText, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';

test.describe('host restart', () => {
  test('the UI reconnects by itself and works again', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('resilient'), 'Resilient');
    await openTerminal(page);

    const status = page.getByTestId('connection-status');
    const restarted = omni.restartHost();
    await expect(status).toHaveText('Reconnecting…');
    await restarted;
    await expectConnected(page);

    // The old shell died with the host, so its card goes; a new one works and the session is still there.
    await expect(visibleSessionView(page).getByTestId('terminal-card')).toHaveCount(0);
    const card = await openTerminal(page);
    await runInTerminal(page, card, 'echo back-again');
    await expect.poll(() => terminalText(card)).toMatch(/^back-again$/m);
  });
});
