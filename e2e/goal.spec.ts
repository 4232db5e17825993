import type { Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore } from '../src-main/node/goal/metaShell/checkpointStore';
import { databasePath } from '../src-main/node/home';
import { openDatabase } from '../src-main/node/store/database';
import { createSession, expectConnected, saveScreenshot, visibleSessionView } from './appDriver';
import { answerConsentCards } from './consentCards';
import { expect, test } from './fixtures';
import { installUserAgent } from './userAgent';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Opens the session's Goal panel from the keyboard: its summary (reached with Tab) and Enter, or Ctrl+Shift+G. */
async function openGoalPanel(page: Page, how: 'summary' | 'shortcut'): Promise<void> {
  const summary = visibleSessionView(page).getByTestId('goal-summary');
  if (how === 'summary') {
    await summary.focus();
    await page.keyboard.press('Enter');
  } else {
    await page.keyboard.press('Control+Shift+G');
    await expect(summary).toBeFocused();
  }
  await expect(visibleSessionView(page).getByTestId('goal-panel')).toHaveAttribute('open', '');
}

/** The host's ledger entries of a type for a session, oldest first (read from its database, as `omni ledger` would). */
function ledgerEntries(home: string, sessionId: string, type: string): { seq: number; actor: string; payload: Record<string, unknown> }[] {
  const db = openDatabase(databasePath(home));
  try {
    return db
      .prepare<[string, string], { seq: number; actor: string; payload: string }>('SELECT seq, actor, payload FROM audit_ledger WHERE session_id = ? AND type = ? ORDER BY seq')
      .all(sessionId, type)
      .map((row) => ({ seq: row.seq, actor: row.actor, payload: JSON.parse(row.payload) as Record<string, unknown> }));
  } finally {
    db.close();
  }
}

async function sessionIdOf(page: Page): Promise<string> {
  const id = await visibleSessionView(page).getAttribute('data-session-id');
  if (!id) throw new Error('the session view has no session id');
  return id;
}

test.describe('goal: context.md and checkpoints', () => {
  test('context.md written in the editor, saved with Ctrl+S, each save in the ledger; an edit made elsewhere is not overwritten', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const workspace = omni.newWorkspace('goal-context');
    await createSession(page, workspace, 'Goal context');
    const sessionId = await sessionIdOf(page);
    await openGoalPanel(page, 'summary');

    const view = visibleSessionView(page);
    const editor = view.getByTestId('goal-context-text');
    const status = view.getByTestId('goal-context-status');
    await expect(status).toHaveText('No context.md yet');
    const first = '# Project: SuperTasker CLI\n\n## Vision\n\nA task CLI, keyboard only.\n';
    await editor.fill(first);
    await expect(status).toHaveText('Unsaved changes');
    await editor.press('Control+s');
    await expect(status).toHaveText(/^Saved · ledger #\d+$/);
    const file = join(workspace, '.meta/context.md');
    expect(readFileSync(file, 'utf8')).toBe(first);
    const [recorded] = ledgerEntries(omni.home, sessionId, 'meta.context_recorded');
    await expect(status).toHaveText(`Saved · ledger #${recorded.seq}`);
    expect(recorded.payload.new_sha256).toBe(sha256(first));

    // A second save (the button this time): a context_edit entry with the old and the new hash, by the user.
    const second = `${first}\n## Tech Stack\n\n- Rust\n`;
    await editor.fill(second);
    await view.getByTestId('goal-context-save').click();
    await expect(status).toHaveText(/^Saved · ledger #\d+$/);
    const [edit] = ledgerEntries(omni.home, sessionId, 'meta.context_edit');
    await expect(status).toHaveText(`Saved · ledger #${edit.seq}`);
    expect([edit.actor, edit.payload.old_sha256, edit.payload.new_sha256]).toEqual(['user', sha256(first), sha256(second)]);

    // Someone changes the file in another editor; this editor's next save is refused instead of overwriting it.
    const elsewhere = `${second}\n## Current Phase Focus\n\nPhase 1\n`;
    writeFileSync(file, elsewhere);
    await editor.fill(`${second}\nmine\n`);
    await editor.press('Control+s');
    await expect(view.getByTestId('goal-context-error')).toContainText('changed on disk since the editor loaded it');
    expect(readFileSync(file, 'utf8')).toBe(elsewhere);
    page.once('dialog', (dialog) => void dialog.accept());
    await view.getByTestId('goal-context-reload').click();
    await expect(editor).toHaveValue(elsewhere);
    await expect(status).toHaveText('No changes');
    // Loading it noticed the outside edit: in the ledger as well.
    expect(ledgerEntries(omni.home, sessionId, 'meta.context_edit').map((e) => e.payload.new_sha256)).toEqual([sha256(second), sha256(elsewhere)]);
    await saveScreenshot(page, 'goal-context-editor');
  });

  test('pending checkpoints: a modal after a reload and after a host restart, focus kept inside, Escape keeps the question; answered by clicking an option, then by free text', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('goal-checkpoints'), 'Goal checkpoints');
    const sessionId = await sessionIdOf(page);

    // Raised in the host's database, as an agent's spawn_agent does (the store is shared by every process on it).
    const db = openDatabase(databasePath(omni.home));
    try {
      const store = new CheckpointStore(db);
      store.raise(sessionId, { type: 'checkpoint', reason: 'decision_required', message: 'Which auth provider?', options: ['Auth0', 'Supabase'], resume_id: 'step_2_auth_decision' }, 'executor');
      store.raise(sessionId, { type: 'checkpoint', reason: 'human_action', message: 'Create the OAuth app in the provider console, then continue', options: [], resume_id: 'step_3_oauth_app' }, 'executor');
    } finally {
      db.close();
    }
    await page.reload();
    await expectConnected(page);

    const dialog = page.getByTestId('checkpoint-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('checkpoint-message')).toHaveText('Which auth provider?');
    await expect(dialog).toContainText('executor asks for a decision · 1 more waiting');
    await expect(dialog.getByTestId('checkpoint-option')).toHaveText(['Auth0', 'Supabase']);
    // Focus starts in the dialog and Tab / Shift+Tab never leave it.
    const focusInDialog = () => dialog.evaluate((element) => element.contains(document.activeElement));
    expect(await focusInDialog()).toBe(true);
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await focusInDialog(), `focus after ${key}`).toBe(true);
    }
    // The app behind it takes neither focus nor clicks while the question is up.
    await expect(page.locator('#root')).toHaveJSProperty('inert', true);
    await saveScreenshot(page, 'goal-checkpoint-dialog');

    // Escape sets it aside; the question stays, in a banner that brings it back.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.locator('#root')).toHaveJSProperty('inert', false);
    const banner = visibleSessionView(page).getByTestId('checkpoint-banner');
    await expect(banner).toContainText('Which auth provider?');
    await expect(visibleSessionView(page).getByTestId('goal-waiting-badge')).toHaveText('2 questions waiting');
    await banner.getByTestId('checkpoint-banner-open').click();
    await expect(dialog).toBeVisible();

    // Over another view the dialog waits; the Session tab says how many questions do.
    await page.keyboard.press('Escape');
    await page.getByTestId('tab-ledger').click();
    await expect(page.getByTestId('tab-questions-waiting')).toHaveText('2');
    await page.getByTestId('tab-session').click();
    await banner.getByTestId('checkpoint-banner-open').click();
    await expect(dialog).toBeVisible();

    // The host crashes and comes back: the questions are still there (they are rows, not memory).
    await omni.restartHost();
    await expectConnected(page);
    await expect(dialog.getByTestId('checkpoint-message')).toHaveText('Which auth provider?');

    await dialog.getByRole('button', { name: 'Supabase' }).click();
    await expect(dialog.getByTestId('checkpoint-message')).toHaveText('Create the OAuth app in the provider console, then continue');
    await dialog.getByTestId('checkpoint-text').fill('Created app omni-e2e, callback http://127.0.0.1/cb');
    await dialog.getByTestId('checkpoint-continue').click();
    await expect(dialog).toBeHidden();
    await expect(visibleSessionView(page).getByTestId('goal-waiting-badge')).toHaveCount(0);

    const answers = ledgerEntries(omni.home, sessionId, 'checkpoint.answer').map((e) => [e.actor, e.payload]);
    expect(answers).toEqual([
      ['user', { resume_id: 'step_2_auth_decision', answer: 'Supabase' }],
      ['user', { resume_id: 'step_3_oauth_app', answer: 'Created app omni-e2e, callback http://127.0.0.1/cb' }],
    ]);
    // Answered means answered: a reload shows no dialog.
    await page.reload();
    await expectConnected(page);
    await expect(visibleSessionView(page).getByTestId('goal-summary')).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });
});

test.describe('goal: a damaged session.json', () => {
  test('is shown instead of the board: the bad field of an invalid file, where a corrupt one was kept', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const workspace = omni.newWorkspace('goal-damaged');
    await createSession(page, workspace, 'Goal damaged');
    const sessionId = await sessionIdOf(page);
    mkdirSync(join(workspace, '.meta'));
    const state = { sessionId, status: 'executing', currentPhase: 1, gapCount: 0, variables: {} };
    const file = join(workspace, '.meta/session.json');

    writeFileSync(file, JSON.stringify({ ...state, status: 'sleeping' }));
    await page.reload();
    await expectConnected(page);
    await openGoalPanel(page, 'shortcut');
    const problem = visibleSessionView(page).getByTestId('goal-state-problem');
    await expect(problem).toHaveAttribute('data-kind', 'invalid');
    await expect(problem).toContainText('.meta/session.json has a bad field: status');

    writeFileSync(file, '{"sessionId": "ses_trunc');
    await page.reload();
    await expectConnected(page);
    await openGoalPanel(page, 'shortcut');
    await expect(problem).toHaveAttribute('data-kind', 'corrupt');
    await expect(problem).toContainText('.meta/session.json is not valid JSON');
    await expect(problem).toContainText('session.json.corrupt-');
    expect(existsSync(file)).toBe(false);
  });
});

/** A native agent in the app home's agent folder (the user's own agents); `script` is its sh entry. */
function installNativeAgent(home: string, name: string, script: string): void {
  const folder = installUserAgent(home, name, { entry: 'agent.sh', sandbox: 'native', capabilities: ['files.write'], oauthScopes: [], mem: '128Mi' }, { 'agent.sh': script });
  chmodSync(join(folder, 'agent.sh'), 0o755);
}

const outputLine = (agent: string, data: string): string =>
  JSON.stringify({ schema_version: '0.1', type: 'output', agent_id: agent, chunk_id: 'main', content_type: 'text/plain', data });

/**
 * Task 01's executor: asks which auth provider (a spec §2 checkpoint as its whole output); resumed with the answer in
 * resume_data, it writes the answer into auth-provider.txt and says so.
 */
const ASKER = `#!/bin/sh
read -r input
case "$input" in
  *'"resume_data":{'*)
    answer=$(printf '%s' "$input" | sed -n 's/.*"user_input":"\\([^"]*\\)".*/\\1/p')
    printf '%s\\n' "$answer" > auth-provider.txt
    printf '{"schema_version":"0.1","type":"output","agent_id":"asker","chunk_id":"main","content_type":"text/plain","data":"Configured %s as the auth provider"}\\n' "$answer"
    ;;
  *)
    cat <<'JSON'
${outputLine('asker', JSON.stringify({ type: 'checkpoint', reason: 'decision_required', message: 'Which auth provider?', options: ['Auth0', 'Supabase'], resume_id: 'step_2_auth_decision' }))}
JSON
    ;;
esac
`;

/** Task 02's executor: starts writing, then takes its time (long enough to be halted). */
const SLOW = `#!/bin/sh
read -r input
echo "half a schema" > schema.sql
printf '%s\\n' '${outputLine('slow', 'writing the schema')}'
sleep 120
`;

const CONTEXT = `# Project: SuperTasker CLI

## Vision

A task CLI with sign-in.

## Plan

- [01] Choose the auth provider
  agent: asker
  verifier: none
- [02] Implement the SQLite schema (after 01)
  agent: slow
  verifier: none
`;

function installGoalAgents(home: string): void {
  installNativeAgent(home, 'asker', ASKER);
  installNativeAgent(home, 'slow', SLOW);
}

test.describe('goal: a run end to end', () => {
  // eslint-disable-next-line no-empty-pattern
  test.use({ prepareHome: async ({}, use) => use(installGoalAgents) });

  test('context.md → Run → the plan on the board → a checkpoint answered by clicking an option → the agent continues with it → Halt → Roll back a task', async ({ omni }) => {
    test.setTimeout(150_000);
    const { page } = omni;
    await expectConnected(page);
    const workspace = omni.newWorkspace('goal-run');
    await createSession(page, workspace, 'Goal run');
    const sessionId = await sessionIdOf(page);
    await openGoalPanel(page, 'shortcut');
    const view = visibleSessionView(page);
    // Every native-agent launch's consent card is answered Allow once, as the user would; the agents allowed, in order.
    const allowed = await answerConsentCards(page, 'consent-allow-once');

    await view.getByTestId('goal-context-text').fill(CONTEXT);
    await view.getByTestId('goal-context-text').press('Control+s');
    await expect(view.getByTestId('goal-context-status')).toHaveText(/^Saved · ledger #\d+$/);

    await view.getByTestId('goal-run').click();
    // The deterministic planner turns the "## Plan" section into the board's tasks.
    const tasks = view.getByTestId('goal-task');
    await expect(tasks).toHaveCount(2);
    await expect(tasks.nth(0)).toContainText('Choose the auth provider');
    await expect(tasks.nth(1).getByTestId('goal-task-deps')).toHaveText('after 01');
    await expect(view.getByTestId('goal-phase')).toContainText('deterministic planner');
    await expect(view.locator('[data-testid="goal-task"][data-active="true"]')).toHaveAttribute('data-task-id', '01');

    // The executor asks (once the user let it run natively); the run waits for the answer in the dialog.
    const dialog = page.getByTestId('checkpoint-dialog');
    await expect(dialog.getByTestId('checkpoint-message')).toHaveText('Which auth provider?', { timeout: 30_000 });
    await expect(view.getByTestId('goal-progress-line').filter({ hasText: 'asks: Which auth provider?' })).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Supabase' }).click();
    await expect(dialog).toBeHidden();
    await expect(view.getByTestId('goal-progress-line').filter({ hasText: 'You answered "step_2_auth_decision": Supabase' })).toHaveCount(1);

    // Resumed with resume_data: the agent uses the answer; the task is committed and complete.
    await expect(tasks.nth(0)).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    await expect(tasks.nth(0).getByTestId('goal-task-commits').locator('code')).toHaveCount(1);
    expect(readFileSync(join(workspace, 'auth-provider.txt'), 'utf8')).toBe('Supabase\n');
    await expect(view.getByTestId('goal-progress-line').filter({ hasText: 'Task 01: committed' })).toHaveCount(1);

    // Task 02 runs (slowly); Halt stops it, and what it had written is not left in the workspace.
    await expect(view.getByTestId('goal-progress-line').filter({ hasText: 'Agent "slow" started' })).toHaveCount(1, { timeout: 30_000 });
    await expect(view.locator('[data-testid="goal-task"][data-active="true"]')).toHaveAttribute('data-task-id', '02');
    await expect(view.getByTestId('goal-phase')).toHaveAttribute('data-phase', 'running');
    await saveScreenshot(page, 'goal-run-board');
    await view.getByTestId('goal-halt').click();
    await expect(view.getByTestId('goal-phase')).toHaveAttribute('data-phase', 'halted', { timeout: 30_000 });
    await expect(view.getByTestId('goal-resume')).toBeEnabled();
    await expect(tasks.nth(1)).toHaveAttribute('data-status', 'pending');
    expect(existsSync(join(workspace, 'schema.sql'))).toBe(false);

    // Roll back task 01, confirmed: its commit is reverted (history kept) and it is pending again.
    await tasks.nth(0).getByTestId('goal-task-rollback').click();
    const confirm = tasks.nth(0).getByTestId('goal-task-confirm');
    await expect(confirm).toContainText('Revert 1 commit of “Choose the auth provider”');
    await expect(confirm.getByTestId('goal-task-confirm-rollback')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(tasks.nth(0).getByTestId('goal-task-rollback-result')).toContainText('Reverted');
    await expect(tasks.nth(0)).toHaveAttribute('data-status', 'pending');
    await expect(tasks.nth(0).getByTestId('goal-task-commits')).toHaveCount(0);
    expect(existsSync(join(workspace, 'auth-provider.txt'))).toBe(false);
    await expect(view.getByTestId('goal-progress-line').filter({ hasText: 'Task 01 rolled back by user' })).toHaveCount(1);

    expect(allowed.filter((agent) => agent === 'asker').length).toBeGreaterThanOrEqual(1);
    expect(allowed).toContain('slow');
    const types = (type: string) => ledgerEntries(omni.home, sessionId, type);
    expect(types('checkpoint.answer').map((e) => e.payload)).toEqual([{ resume_id: 'step_2_auth_decision', answer: 'Supabase' }]);
    expect(types('goal.rollback').map((e) => [e.actor, e.payload.taskId])).toEqual([['user', '01']]);
    await saveScreenshot(page, 'goal-run-rolled-back');

    // After a reload, a session whose goal has a plan shows its panel unfolded, the board as the files say.
    await page.reload();
    await expectConnected(page);
    await expect(view.getByTestId('goal-panel')).toHaveAttribute('open', '');
    await expect(tasks).toHaveCount(2);
    await expect(view.getByTestId('goal-phase')).toHaveAttribute('data-phase', 'halted');
    await expect(view.getByTestId('goal-progress-line').filter({ hasText: 'Task 01 rolled back by user' })).toHaveCount(1);
  });
});
