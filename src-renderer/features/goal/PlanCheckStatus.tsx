import type { PlanCheckState } from './usePlanCheck';

/**
 * Under the context editor: what Run would make of the plan as typed. A mistake in the "## Plan" section shows as the
 * host words it (with its line), and goes as soon as the text is fixed; a good plan says how many tasks it has.
 */
export function PlanCheckStatus({ state, onShowLine }: { state: PlanCheckState; onShowLine(line: number): void }) {
  if (state.kind === 'failed') {
    return (
      <small className="muted goal-plan-check" data-testid="goal-plan-status">
        The plan could not be checked now ({state.message}); Run checks it again.
      </small>
    );
  }
  if (state.kind !== 'checked') return null;
  const { check } = state;
  if (check.problem) {
    const line = check.problem.line;
    return (
      <p className="item-error goal-plan-check" role="alert" data-testid="goal-plan-problem">
        {check.problem.message}
        {line !== null && (
          <>
            {' '}
            <button type="button" className="secondary outline goal-plan-line" onClick={() => onShowLine(line)} data-testid="goal-plan-show-line">
              Show line {line}
            </button>
          </>
        )}
      </p>
    );
  }
  return (
    <small className="muted goal-plan-check" role="status" data-testid="goal-plan-status">
      {check.planner === 'deterministic'
        ? `Plan checked: ${check.tasks} ${check.tasks === 1 ? 'task' : 'tasks'}, in an order Run can follow.`
        : 'No "## Plan" section: when you Run, the planner agent writes the tasks. Insert an example plan to write them yourself.'}
    </small>
  );
}
