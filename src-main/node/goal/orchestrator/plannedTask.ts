import { DomainError } from '../../base/domainError';

/**
 * A task as a planner produces it: what session.json keeps (id, title, dependencies) plus how to run it, which
 * session.json's strict task schema has no room for (kept in variables.goalRun.details, see goalRunRecord.ts).
 */
export interface PlannedTask {
  id: string;
  title: string;
  dependencies: string[];
  /** The executor agent for this task (default: the configured executor). */
  agent?: string;
  /** The verifier agent for this task; "none" skips verification (default: the configured verifier). */
  verifier?: string;
  /** Free text handed to the executor with the task. */
  instructions?: string;
}

/** Ids are short names the user and the agents type: letters, digits and . _ - */
export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A plan that cannot be used: malformed context.md, planner output that is not a task list, or a task graph that is no DAG. */
export class PlanError extends DomainError {
  constructor(
    /** Where the plan came from: ".meta/context.md" or "planner output". */
    readonly source: string,
    readonly problem: string,
    /** 1-based line in context.md, when the plan came from there. */
    readonly line?: number,
  ) {
    super('invalid_input', `${source}${line === undefined ? '' : ` line ${line}`}: ${problem}`);
    this.name = 'PlanError';
  }
}
