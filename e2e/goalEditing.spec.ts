import { createSession, expectConnected, saveScreenshot, visibleSessionView } from './appDriver';
import { expect, test, type OmniApp } from './fixtures';

/** A session with its Goal panel open (Ctrl+Shift+G), at the smallest window the app is made for. */
async function goalPanel(omni: OmniApp, name: string) {
  const { page } = omni;
  await page.setViewportSize({ width: 1000, height: 700 });
  await expectConnected(page);
  await createSession(page, omni.newWorkspace(name), name);
  const view = visibleSessionView(page);
  await page.keyboard.press('Control+Shift+G');
  await expect(view.getByTestId('goal-panel')).toHaveAttribute('open', '');
  await expect(view.getByTestId('goal-context-status')).toHaveText('No context.md yet');
  return { page, view, editor: view.getByTestId('goal-context-text'), planStatus: view.getByTestId('goal-plan-status'), problem: view.getByTestId('goal-plan-problem') };
}

const PLAN = '# Project: Tasks\n\n## Plan\n- [01] Set up\n- [02] Build (after 01)\n';

test.describe('goal: writing the plan', () => {
  // A host, a browser and a few host round trips each: under the load of parallel helpers that is more than 30 s.
  test.describe.configure({ timeout: 60_000 });

  test('an example plan is one click away, the plan is checked as it is typed, and a fixed mistake leaves no error behind', async ({ omni }) => {
    const { page, view, editor, planStatus, problem } = await goalPanel(omni, 'goal-editing');
    await editor.fill('# Project: Tasks\n\n## Vision\nA task CLI.\n');
    await expect(planStatus).toContainText('No "## Plan" section');

    // The example goes after what is written, the cursor on it; the host accepts it as it is.
    const insert = view.getByTestId('goal-insert-example');
    await insert.click();
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue(/^# Project: Tasks\n\n## Vision\nA task CLI\.\n\n## Plan\n- \[01\] Set up the project\n/);
    await expect(planStatus).toHaveText('Plan checked: 3 tasks, in an order Run can follow.');
    await expect(insert).toBeDisabled();

    // A mistake as it is typed: the host's words, its line, and a way to get there.
    const text = await editor.inputValue();
    const broken = text.replace('(after 02)', '(after 07)');
    await editor.fill(broken);
    await expect(problem).toContainText(/^\.meta\/context\.md line 11: .*07/);
    await expect(planStatus).toHaveCount(0);
    await saveScreenshot(page, 'goal-plan-problem-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'goal-plan-problem-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await view.getByTestId('goal-plan-show-line').click();
    await expect(editor).toBeFocused();
    const selected = await editor.evaluate((area: HTMLTextAreaElement) => area.value.slice(area.selectionStart, area.selectionEnd));
    expect(selected).toBe('- [03] Add tests for the data model (after 07)');

    // Fixed: the error goes without a save, and the plan is counted again.
    await editor.fill(text);
    await expect(problem).toHaveCount(0);
    await expect(planStatus).toHaveText('Plan checked: 3 tasks, in an order Run can follow.');

  });

  test("Run's refusal of a saved broken plan goes once the fixed plan is saved", async ({ omni }) => {
    const { view, editor, problem } = await goalPanel(omni, 'goal-refusal');
    await editor.fill(PLAN.replace('(after 01)', '(after 07)'));
    await expect(problem).toContainText('line 5');
    await editor.press('Control+s');
    await expect(view.getByTestId('goal-context-status')).toHaveText(/^Saved · ledger #\d+$/);
    await view.getByTestId('goal-run').click();
    const refusal = view.getByTestId('goal-action-error');
    await expect(refusal).toContainText('line 5');
    await editor.fill(PLAN);
    await expect(problem).toHaveCount(0);
    await editor.press('Control+s');
    await expect(view.getByTestId('goal-context-status')).toHaveText(/^Saved · ledger #\d+$/);
    await expect(refusal).toHaveCount(0);
  });
});
