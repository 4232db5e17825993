import type { GoalSessionState, SessionStateProblem } from '../../../src-preload/contract';
import { stateSummary } from './goalFormat';
import { TaskRow } from './TaskRow';

/**
 * The plan from session.json: each task with its status, dependencies and commits, the active one highlighted; or,
 * when session.json cannot be read, what is wrong with it (and where a corrupt one was kept).
 */
export function TaskBoard({ sessionId, state, problem, activeTaskId, disabled }: { sessionId: string; state: GoalSessionState | null; problem: SessionStateProblem | null; activeTaskId: string | null; disabled: boolean }) {
  const tasks = state?.plan?.tasks ?? [];
  return (
    <section className="goal-board" aria-label="Tasks" data-testid="goal-board">
      <div className="goal-section-head">
        <h4>Tasks</h4>
        {state && (
          <span className="muted" data-testid="goal-state-summary">
            {stateSummary(state)}
          </span>
        )}
      </div>
      {problem && (
        <div className="item-error" role="alert" data-testid="goal-state-problem" data-kind={problem.kind}>
          <strong>{problem.kind === 'corrupt' ? '.meta/session.json is not valid JSON' : `.meta/session.json has a bad field${problem.field ? `: ${problem.field}` : ''}`}</strong>
          <p>{problem.message}</p>
        </div>
      )}
      {!problem && tasks.length === 0 && (
        <p className="muted empty" data-testid="goal-board-empty">
          No plan yet. Write what to build in context.md, then Run: the planner turns it into tasks here.
        </p>
      )}
      {tasks.length > 0 && (
        <ol className="goal-task-list">
          {tasks.map((task) => (
            <TaskRow key={task.id} sessionId={sessionId} task={task} active={task.id === activeTaskId} disabled={disabled} />
          ))}
        </ol>
      )}
    </section>
  );
}
