// The orchestrator as the rest of the host sees it: what the UI wiring (handlers, contract, views) calls and what it
// is told. The loop itself (orchestrator.ts and friends) implements GoalRunService; the handlers only forward.
import type { SessionState } from '../metaShell/sessionState';

/** What a session's goal run is doing now, beyond SessionState.status. */
export type GoalRunPhase = 'idle' | 'running' | 'waiting_checkpoint' | 'halted' | 'done' | 'failed';

export interface GoalRunView {
  sessionId: string;
  phase: GoalRunPhase;
  /** The last valid .meta/session.json (tasks, statuses, commits, gapCount), or null before the first Run. */
  state: SessionState | null;
  /** Which planner drives the run: the offline deterministic one, or an LLM through a vault connection. */
  planner: 'deterministic' | 'llm';
  /** The task being executed or verified, if any. */
  activeTaskId: string | null;
  /** A human-readable reason when phase is failed or halted (circuit breaker, user halt, error). */
  message: string | null;
}

export interface RollbackResult {
  taskId: string;
  /** The commits reverted (newest first) and the revert commits made for them. */
  reverted: string[];
  revertCommits: string[];
}

/** A task commit as `git show` has it (contract goal.ts TaskCommitView). */
export interface TaskCommitView {
  commit: string;
  stat: string;
  patch: string;
  truncated: boolean;
}

/** context.md's plan as Run would read it (contract goal.ts PlanCheck). */
export interface PlanCheck {
  planner: 'deterministic' | 'llm';
  tasks: number;
  problem: { message: string; line: number | null } | null;
}

/** The answer to "the workspace has uncommitted changes" (contract goal.ts DirtyTreeAnswer). */
export type DirtyTreeChoice = 'commit' | 'stash' | 'worktree';

export interface GoalRunService {
  /**
   * Run: plan (if there is no plan yet) and execute tasks in dependency order. Resolves once started. On uncommitted
   * changes without `dirtyTree`, DirtyTreeError (nothing touched); "worktree" answers with the new session's view.
   */
  start(sessionId: string, actor: string, dirtyTree?: DirtyTreeChoice): Promise<GoalRunView>;
  /** Halt: stop the running agent (its partial writes are rolled back) and set status "halted". */
  halt(sessionId: string, actor: string): Promise<GoalRunView>;
  /** Resume a halted run where it stopped. */
  resume(sessionId: string, actor: string, dirtyTree?: DirtyTreeChoice): Promise<GoalRunView>;
  /** What one of the plan's task commits changed. */
  showCommit(sessionId: string, commit: string): Promise<TaskCommitView>;
  /** Revert a task's commits with `git revert` (never rewriting history), mark it pending again, ledger it. */
  rollback(sessionId: string, taskId: string, actor: string): Promise<RollbackResult>;
  view(sessionId: string): GoalRunView;
  /** Checks context.md's text as Run would plan it, without running anything (the editor checks as the user types). */
  checkPlan(text: string): PlanCheck;
  onDidChange(listener: (view: GoalRunView) => void): { dispose(): void };
}
