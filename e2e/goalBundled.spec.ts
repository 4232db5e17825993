// A goal run in the app with nothing installed: the bundled executor and verifier (assets/agents) carry out a
// "## Plan" written in the Goal panel. Every file write and command is a consent card the user allows; the
// executor's question is answered in the checkpoint dialog; the board ends "done".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSession, expectConnected, saveScreenshot, visibleSessionView } from './appDriver';
import { answerConsentCards } from './consentCards';
import { expect, test } from './fixtures';

const CONTEXT = `# Project: auth config

## Plan

- [01] Choose the auth provider
  ask: Which auth provider? [Auth0 | Supabase]
  write auth.conf
  \`\`\`
  provider = {answer}
  \`\`\`
  check: grep -q "provider = Supabase" auth.conf
- [02] Record the choice (after 01)
  $ sed 's/provider = //' auth.conf > provider.txt
  check: test "$(cat provider.txt)" = Supabase
`;

test('goal run with the bundled agents only: Run → cards allowed → the question answered → both tasks checked, committed, done', async ({ omni }) => {
  test.setTimeout(150_000);
  const { page } = omni;
  await expectConnected(page);
  const workspace = omni.newWorkspace('goal-bundled');
  await createSession(page, workspace, 'Bundled goal');
  await page.keyboard.press('Control+Shift+G');
  const view = visibleSessionView(page);
  await expect(view.getByTestId('goal-panel')).toHaveAttribute('open', '');
  // Every card is allowed once, as the user would; "<agent> <capability>" per card.
  const allowed = await answerConsentCards(page, 'consent-allow-once', async (card) => {
    const text = async (id: string) => (await card.getByTestId(id).innerText()).trim();
    return `${await text('consent-agent')} ${await text('consent-capability')}`;
  });

  await view.getByTestId('goal-context-text').fill(CONTEXT);
  await view.getByTestId('goal-context-text').press('Control+s');
  await expect(view.getByTestId('goal-context-status')).toHaveText(/^Saved · ledger #\d+$/);
  await view.getByTestId('goal-run').click();

  const dialog = page.getByTestId('checkpoint-dialog');
  await expect(dialog.getByTestId('checkpoint-message')).toHaveText('Which auth provider?', { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Supabase' }).click();
  await expect(dialog).toBeHidden();

  await expect(view.getByTestId('goal-phase')).toHaveAttribute('data-phase', 'done', { timeout: 90_000 });
  const tasks = view.getByTestId('goal-task');
  await expect(tasks.nth(0)).toHaveAttribute('data-status', 'complete');
  await expect(tasks.nth(1)).toHaveAttribute('data-status', 'complete');
  await expect(tasks.nth(0).getByTestId('goal-task-commits').locator('code')).toHaveCount(1);
  await expect(tasks.nth(1).getByTestId('goal-task-commits').locator('code')).toHaveCount(1);
  // session.json keeps "verifying" (the spec has no done status); the board says the run is done.
  await expect(view.getByTestId('goal-state-summary')).toHaveText('done: all 2 tasks complete · phase 1');
  expect(readFileSync(join(workspace, 'auth.conf'), 'utf8')).toBe('provider = Supabase\n');
  expect(readFileSync(join(workspace, 'provider.txt'), 'utf8')).toBe('Supabase\n');
  expect(allowed).toEqual(['executor files.write', 'verifier process.exec', 'executor process.exec', 'verifier process.exec']);
  await saveScreenshot(page, 'goal-bundled-done');
});
