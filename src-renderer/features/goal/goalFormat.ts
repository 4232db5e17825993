import type { GoalRunPhase, GoalSessionState, GoalTask } from '../../../src-preload/contract';

export const phaseLabels: Record<GoalRunPhase, string> = {
  idle: 'not started',
  running: 'running',
  waiting_checkpoint: 'waiting for you',
  halted: 'halted',
  done: 'done',
  failed: 'failed',
};

/**
 * Which of Run / Halt / Resume make sense in a phase. After a failure both continue where it stopped; a run whose
 * tasks are all complete has nothing to run (roll a task back to run it again).
 */
export function controlsFor(phase: GoalRunPhase | null): { run: boolean; halt: boolean; resume: boolean } {
  return {
    run: phase === null || phase === 'idle' || phase === 'failed',
    halt: phase === 'running' || phase === 'waiting_checkpoint',
    resume: phase === 'halted' || phase === 'failed',
  };
}

/** "3 of 5 tasks complete" for the collapsed panel's summary. */
export function taskSummary(tasks: readonly GoalTask[]): string {
  if (tasks.length === 0) return 'no plan yet';
  const complete = tasks.filter((t) => t.status === 'complete').length;
  const failed = tasks.filter((t) => t.status === 'failed').length;
  return `${complete} of ${tasks.length} tasks complete${failed > 0 ? `, ${failed} failed` : ''}`;
}

/**
 * The board's line about session.json: its status and phase. The spec's statuses (planning | executing | verifying |
 * halted) have no "done": a finished run leaves the status its last step wrote ("verifying", with currentTaskIdx past
 * the last task), so a plan whose tasks are all complete is shown as done rather than as still verifying.
 */
export function stateSummary(state: GoalSessionState): string {
  const tasks = state.plan?.tasks ?? [];
  const finished = state.status !== 'halted' && tasks.length > 0 && tasks.every((t) => t.status === 'complete');
  const status = finished ? `done: all ${tasks.length} task${tasks.length === 1 ? '' : 's'} complete` : state.status;
  const gaps = state.gapCount > 0 ? ` · ${state.gapCount} failed verification${state.gapCount === 1 ? '' : 's'} in a row` : '';
  return `${status} · phase ${state.currentPhase}${gaps}`;
}

export const shortCommit = (commit: string): string => commit.slice(0, 7);

export function timeOfDay(ts: number): string {
  const d = new Date(ts);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}
