// Issue 23, item 12: axe-core over every view and state a user meets, in the light and the dark theme, with no
// serious or critical violation; and every action a user needs reached from the keyboard, with a visible focus ring.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { CheckpointStore } from '../src-main/node/goal/metaShell/checkpointStore';
import { databasePath } from '../src-main/node/home';
import { openDatabase } from '../src-main/node/store/database';
import { expectAccessible } from './a11yCheck';
import { tabTo } from './a11yKeyboard';
import { createSession, expectConnected, openTerminal, saveScreenshot, visibleSessionView } from './appDriver';
import { expect, test, type OmniApp } from './fixtures';

/** A session on a workspace with a few files (what workspace-summary reads). */
async function sessionWithFiles(omni: OmniApp, name: string): Promise<Locator> {
  const workspace = omni.newWorkspace(name.toLowerCase());
  writeFileSync(join(workspace, 'README.md'), '# Demo\n\nA small demo workspace.\n');
  writeFileSync(join(workspace, 'a.ts'), 'export const a = 1;\n');
  await createSession(omni.page, workspace, name);
  return visibleSessionView(omni.page);
}

/** Starts workspace-summary from the launcher and waits for its consent card. */
async function summaryAsking(session: Locator): Promise<{ run: Locator; consent: Locator }> {
  await session.getByTestId('agent-select').selectOption('workspace-summary');
  await session.getByTestId('agent-prompt').fill('summarise for a11y');
  await session.getByTestId('agent-prompt').press('Enter');
  const consent = session.getByTestId('consent-card');
  await expect(consent).toHaveCount(1, { timeout: 20_000 });
  return { run: session.locator('[data-testid="run-card"]', { hasText: 'summarise for a11y' }).first(), consent };
}

test.describe('accessibility', () => {
  // An axe pass over the page took 3-11 s at load averages of 5-20 (several test runs sharing 2 cores); each test
  // makes up to six, and starting a WASM agent takes seconds more.
  test.describe.configure({ timeout: 180_000 });

  test.beforeEach(async ({ omni }) => {
    await omni.page.setViewportSize({ width: 1000, height: 700 });
    await expectConnected(omni.page);
  });

  test('axe: the empty app with its new session form, a session with a terminal', async ({ omni }) => {
    const { page } = omni;
    await expectAccessible(page, 'the empty app (new session form)');
    await sessionWithFiles(omni, 'Terminals');
    await openTerminal(page);
    await expectAccessible(page, 'a session with a terminal');
  });

  test('axe: the goal and changes panels open, the runs tab with a finished run', async ({ omni }) => {
    const { page } = omni;
    const session = await sessionWithFiles(omni, 'Panels');
    await page.keyboard.press('Control+Shift+G');
    await expect(session.getByTestId('goal-panel')).toHaveAttribute('open', '');
    await page.keyboard.press('Control+Shift+D');
    await expect(session.getByTestId('changes-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expectAccessible(page, 'the goal and changes panels open');

    await session.getByTestId('dock-tab').filter({ hasText: 'Runs' }).click();
    await session.getByTestId('exec-run-command').fill('echo accessible');
    await session.getByTestId('exec-run-command').press('Enter');
    await expect(session.getByTestId('exec-run-row').first().getByTestId('exec-run-status')).toHaveText('exited 0', { timeout: 20_000 });
    await expectAccessible(page, 'the runs tab with a finished run');
  });

  test('axe: a pending consent card, a finished card with its outcome chip, the grants panel', async ({ omni }) => {
    const { page } = omni;
    const session = await sessionWithFiles(omni, 'Agents');
    const { run, consent } = await summaryAsking(session);
    await expectAccessible(page, 'a pending consent card');
    await consent.getByTestId('consent-allow-for').click();
    await expect(run.getByTestId('run-state')).toHaveAttribute('data-outcome-kind', 'completed', { timeout: 30_000 });
    await expect(session.getByTestId('grant-row')).not.toHaveCount(0);
    await expectAccessible(page, 'a finished agent card with its outcome chip, and the grants panel');
    await saveScreenshot(page, 'a11y-session-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'a11y-session-dark');
  });

  test('axe: the ledger with entries and filters, a verify result, the export popover', async ({ omni }) => {
    const { page } = omni;
    await createSession(page, omni.newWorkspace('ledgered'), 'Ledgered');
    await page.getByTestId('tab-ledger').click();
    const ledger = page.getByTestId('ledger-view');
    await expect(ledger.getByTestId('ledger-row')).not.toHaveCount(0);
    await expectAccessible(page, 'the ledger with entries and its filters');
    await ledger.getByTestId('ledger-verify').click();
    await expect(ledger.getByTestId('ledger-verify-result')).not.toBeEmpty({ timeout: 30_000 });
    await ledger.getByTestId('ledger-export').click();
    await expect(ledger.getByTestId('ledger-export-panel')).toBeVisible();
    await expectAccessible(page, 'the ledger with a verify result and the export popover open');
    await saveScreenshot(page, 'a11y-ledger-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'a11y-ledger-dark');
  });

  test('axe: the connections view, the agents view, a checkpoint dialog', async ({ omni }) => {
    const { page } = omni;
    await createSession(page, omni.newWorkspace('asked'), 'Asked');
    const sessionId = await visibleSessionView(page).getAttribute('data-session-id');
    await page.getByTestId('tab-connections').click();
    await expect(page.getByTestId('connections-view')).toBeVisible();
    await expectAccessible(page, 'the connections view');
    await page.getByTestId('tab-agents').click();
    await expect(page.getByTestId('agent-manifest').first()).toBeVisible();
    await expectAccessible(page, 'the agents view');

    // A checkpoint question, raised in the host's database as an agent's spawn_agent does.
    const db = openDatabase(databasePath(omni.home));
    try {
      new CheckpointStore(db).raise(sessionId!, { type: 'checkpoint', reason: 'decision_required', message: 'Which auth provider?', options: ['Auth0', 'Supabase'], resume_id: 'a11y_step' }, 'executor');
    } finally {
      db.close();
    }
    await page.getByTestId('tab-session').click();
    await page.reload();
    await expectConnected(page);
    await expect(page.getByTestId('checkpoint-dialog')).toBeVisible();
    await expectAccessible(page, 'the checkpoint dialog');
  });

  test('axe: the host-down banner; the conversation still scrolls from the keyboard while every control is off', async ({ omni }) => {
    const { page } = omni;
    await sessionWithFiles(omni, 'Offline');
    // The page's reconnects are refused until the checks are done, so the banner stays however fast the host is back.
    let refuse = true;
    await page.routeWebSocket(/.*/, (ws) => {
      if (refuse) void ws.close();
      else ws.connectToServer();
    });
    await omni.restartHost();
    await expect(page.getByTestId('host-down-banner')).toBeVisible();
    // axe counts everything inside a disabled fieldset (the host gate) as unfocusable; a browser disables only its
    // form controls, so the conversation column keeps its tab stop. Proven below by scrolling it from the keyboard.
    await expectAccessible(page, 'the host-down banner', [{ rule: 'scrollable-region-focusable', target: '.workspace-main' }]);
    const conversation = visibleSessionView(page).getByTestId('workspace-main');
    if (await conversation.evaluate((el) => el.scrollHeight > el.clientHeight)) {
      await tabTo(page, conversation, 'the conversation column while the host is gone');
      await page.keyboard.press('End');
      await expect.poll(() => conversation.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    }
    refuse = false;
    await expect(page.getByTestId('host-down-banner')).toHaveCount(0, { timeout: 30_000 });
  });

  test('keyboard: every action a user needs is reached with Tab and shows a focus ring', async ({ omni }) => {
    const { page } = omni;
    const workspace = omni.newWorkspace('keys');
    writeFileSync(join(workspace, 'README.md'), '# Keys\n');

    // New session, from the sidebar form.
    await tabTo(page, page.getByTestId('new-session-workspace'), 'the workspace field');
    await page.keyboard.type(workspace);
    await tabTo(page, page.getByTestId('new-session-name'), 'the session name field');
    await page.keyboard.type('Keys');
    await tabTo(page, page.getByRole('button', { name: 'New session' }), 'New session');
    await page.keyboard.press('Enter');
    const session = visibleSessionView(page);
    await expect(session.getByTestId('session-title')).toHaveText('Keys');

    // Launch an agent (the launcher starts on workspace-summary, which asks to read files).
    await tabTo(page, session.getByTestId('agent-select'), 'the agent picker');
    await tabTo(page, session.getByTestId('agent-prompt'), 'the agent prompt');
    await page.keyboard.type('summarise by keyboard');
    await tabTo(page, session.getByTestId('agent-start'), 'Start agent');
    await page.keyboard.press('Enter');

    // Allow / deny on the consent card, which takes the focus when it comes.
    const card = session.getByTestId('consent-card');
    await expect(card).toBeFocused({ timeout: 20_000 });
    await tabTo(page, card.getByTestId('consent-deny'), 'Deny on the consent card');
    await tabTo(page, card.getByTestId('consent-allow-once'), 'Allow once on the consent card', { backwards: true });
    await tabTo(page, card.getByTestId('consent-allow-for'), 'Allow for… on the consent card');
    await page.keyboard.press('Enter');
    await expect(card).toHaveCount(0);

    // Revoke the grant it made.
    const revoke = session.getByTestId('grant-revoke');
    await expect(revoke).toHaveCount(1, { timeout: 20_000 });
    await tabTo(page, revoke, 'Revoke on the grant', { limit: 80 });
    await page.keyboard.press('Enter');
    await expect(session.getByTestId('grant-row')).toHaveCount(0);

    // The goal and changes panels, from their own headers.
    await tabTo(page, session.getByTestId('goal-summary'), 'the Goal panel', { backwards: true, limit: 80 });
    await page.keyboard.press('Enter');
    await expect(session.getByTestId('goal-panel')).toHaveAttribute('open', '');
    await tabTo(page, session.getByTestId('changes-toggle'), 'the Changes panel', { limit: 120 });
    await page.keyboard.press('Enter');
    await expect(session.getByTestId('changes-toggle')).toHaveAttribute('aria-expanded', 'true');

    // The ledger (verify, export) and connections, through the view tabs (Tab to the tab list, arrows along it).
    await tabTo(page, page.getByTestId('tab-session'), 'the view tabs', { backwards: true, limit: 120 });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('tab-ledger')).toBeFocused();
    await expect(page.getByTestId('ledger-view')).toBeVisible();
    await tabTo(page, page.getByTestId('ledger-verify'), 'Verify in the ledger');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ledger-verify-result')).not.toBeEmpty({ timeout: 30_000 });
    await tabTo(page, page.getByTestId('ledger-export'), 'Export in the ledger');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ledger-export-panel')).toBeVisible();
    await tabTo(page, page.getByTestId('tab-ledger'), 'the Ledger tab', { backwards: true });
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('tab-connections')).toBeFocused();
    await expect(page.getByTestId('connections-view')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('tab-session')).toBeFocused();

    // New terminal, last: a terminal keeps Tab for its shell once it has the focus.
    await tabTo(page, session.getByTestId('new-terminal'), 'New terminal', { limit: 120 });
    await page.keyboard.press('Enter');
    await expect(session.getByTestId('terminal-card')).toHaveCount(1);
  });
});
