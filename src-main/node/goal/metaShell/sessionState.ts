import { z } from 'zod';
import { findDependencyCycle } from './dependencyCycle';
import { describeProblems, fieldProblems, type FieldProblem } from './schemaProblems';
import { DomainError } from '../../base/domainError';

/**
 * `.meta/session.json`: the mutable runtime state of a goal-driven session (spec/meta-state-files.md, SessionState).
 * Every field of the spec is here; objects are strict so a misspelt field is named instead of silently ignored.
 */
export const SESSION_STATUSES = ['planning', 'executing', 'verifying', 'halted'] as const;
// stale is the host's: a complete task one of whose dependencies was rolled back (it runs again like a pending one).
export const TASK_STATUSES = ['pending', 'complete', 'failed', 'stale'] as const;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValueSchema), z.record(z.string(), JsonValueSchema)]),
);

const TaskSchema = z.strictObject({
  id: z.string().min(1, 'must not be empty'),
  title: z.string(),
  status: z.enum(TASK_STATUSES),
  dependencies: z.array(z.string()),
  /** Tracked for rollback (`git revert`), so each must be a commit id. */
  commits: z.array(z.string().regex(/^[0-9a-f]{7,64}$/, 'must be a git commit id (7 to 64 lowercase hex digits)')).optional(),
});

const PlanSchema = z
  .strictObject({
    tasks: z.array(TaskSchema),
    currentTaskIdx: z.number().int().min(0),
  })
  .superRefine((plan, ctx) => {
    const index = new Map<string, number>();
    plan.tasks.forEach((task, i) => {
      if (index.has(task.id)) ctx.addIssue({ code: 'custom', path: ['tasks', i, 'id'], message: `repeats task id "${task.id}" (already task ${index.get(task.id)})` });
      else index.set(task.id, i);
    });
    plan.tasks.forEach((task, i) =>
      task.dependencies.forEach((dep, j) => {
        if (!index.has(dep)) ctx.addIssue({ code: 'custom', path: ['tasks', i, 'dependencies', j], message: `names task "${dep}", which is not in the plan` });
        else if (dep === task.id) ctx.addIssue({ code: 'custom', path: ['tasks', i, 'dependencies', j], message: 'a task cannot depend on itself' });
      }),
    );
    const cycle = findDependencyCycle(plan.tasks, index);
    if (cycle) ctx.addIssue({ code: 'custom', path: ['tasks', index.get(cycle[0])!, 'dependencies'], message: `form a cycle: ${cycle.join(' → ')}` });
    if (plan.currentTaskIdx > plan.tasks.length) {
      ctx.addIssue({ code: 'custom', path: ['currentTaskIdx'], message: `is ${plan.currentTaskIdx}, past the last task (the plan has ${plan.tasks.length})` });
    }
  });

export const SessionStateSchema = z.strictObject({
  sessionId: z.string().min(1, 'must not be empty'),
  status: z.enum(SESSION_STATUSES),
  currentPhase: z.number().int().min(0),
  /** Failed verifications in a row: the orchestrator's circuit breaker. */
  gapCount: z.number().int().min(0),
  plan: PlanSchema.optional(),
  /** Arbitrary agent memory: any JSON. */
  variables: z.record(z.string(), JsonValueSchema),
});

export type SessionState = z.infer<typeof SessionStateSchema>;
export type SessionStatus = SessionState['status'];
export type PlanTask = NonNullable<SessionState['plan']>['tasks'][number];

/** session.json (or a value meant for it) does not follow the SessionState schema. `field` is the first bad one. */
export class SessionStateInvalidError extends DomainError {
  readonly field: string;
  constructor(
    /** Where the value came from: the file's path, or "update_state(key)". */
    readonly source: string,
    readonly problems: readonly FieldProblem[],
  ) {
    super('state', `${source}: ${describeProblems(problems)}. Fix the field (spec/meta-state-files.md describes SessionState); nothing was written.`);
    this.name = 'SessionStateInvalidError';
    this.field = problems[0].field;
  }
}

/** The value as a SessionState, or SessionStateInvalidError naming every bad field. */
export function parseSessionState(value: unknown, source: string): SessionState {
  const parsed = SessionStateSchema.safeParse(value);
  if (!parsed.success) throw new SessionStateInvalidError(source, fieldProblems(parsed.error));
  return parsed.data;
}

/** A fresh state for a session that is about to plan. */
export function initialSessionState(sessionId: string): SessionState {
  return { sessionId, status: 'planning', currentPhase: 1, gapCount: 0, variables: {} };
}
