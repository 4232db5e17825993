import { z } from 'zod';
import { call, liveList, stream } from './define';
import { SessionId } from './sessions';

/**
 * Goal-driven sessions (spec/host-interface-v3.1.md, spec/meta-state-files.md): the user's `.meta/context.md`, the
 * host's `.meta/session.json`, the goal run (Run / Halt / Resume / Roll back), checkpoints waiting for the user and the
 * log_progress stream. Field names inside SessionState and the checkpoint are the specs'.
 */

export type GoalJson = string | number | boolean | null | GoalJson[] | { [key: string]: GoalJson };
export const GoalJson: z.ZodType<GoalJson> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(GoalJson), z.record(z.string(), GoalJson)]));

/** The host checks session.json fully (src-main/node/goal/metaShell/sessionState.ts); this is its shape for the UI. */
export const GoalTask = z.object({
  id: z.string(),
  title: z.string(),
  /** stale: it was complete, but a task it depends on (directly or not) was rolled back since; Run executes it again. */
  status: z.enum(['pending', 'complete', 'failed', 'stale']),
  dependencies: z.array(z.string()),
  commits: z.array(z.string()).optional(),
});
export type GoalTask = z.infer<typeof GoalTask>;

export const GoalSessionState = z.object({
  sessionId: z.string(),
  status: z.enum(['planning', 'executing', 'verifying', 'halted']),
  currentPhase: z.number().int(),
  gapCount: z.number().int(),
  plan: z.object({ tasks: z.array(GoalTask), currentTaskIdx: z.number().int() }).optional(),
  variables: z.record(z.string(), GoalJson),
});
export type GoalSessionState = z.infer<typeof GoalSessionState>;

/**
 * Why session.json cannot be shown. corrupt: not JSON at all; it was moved aside to `keptAt`. invalid: JSON that
 * breaks the schema; it stays in place and `field` names the first bad field, so the user can fix it.
 */
export const SessionStateProblem = z.object({
  kind: z.enum(['corrupt', 'invalid']),
  message: z.string(),
  field: z.string().nullable(),
  keptAt: z.string().nullable(),
});
export type SessionStateProblem = z.infer<typeof SessionStateProblem>;

/** session.json as it is: the state (null before the first Run), or the problem that keeps it from being read. */
export const SessionStateRead = z.object({ state: GoalSessionState.nullable(), problem: SessionStateProblem.nullable() });
export type SessionStateRead = z.infer<typeof SessionStateRead>;

export const GoalRunPhase = z.enum(['idle', 'running', 'waiting_checkpoint', 'halted', 'done', 'failed']);
export type GoalRunPhase = z.infer<typeof GoalRunPhase>;

export const GoalRunView = z.object({
  sessionId: z.string(),
  phase: GoalRunPhase,
  state: GoalSessionState.nullable(),
  planner: z.enum(['deterministic', 'llm']),
  activeTaskId: z.string().nullable(),
  message: z.string().nullable(),
});
export type GoalRunView = z.infer<typeof GoalRunView>;

export const RollbackResult = z.object({ taskId: z.string(), reverted: z.array(z.string()), revertCommits: z.array(z.string()) });
export type RollbackResult = z.infer<typeof RollbackResult>;

/** At most this much context.md: it goes into every planner prompt. */
export const MAX_CONTEXT_CHARS = 200_000;

export const ContextFile = z.object({
  /** null: the workspace has no .meta/context.md yet. */
  text: z.string().nullable(),
  sha256: z.string().nullable(),
  bytes: z.number().int(),
});
export type ContextFile = z.infer<typeof ContextFile>;

export const ContextSaved = z.object({
  sha256: z.string(),
  bytes: z.number().int(),
  /** The ledger entry that records the edit (meta.context_recorded / meta.context_edit); null when nothing changed. */
  ledgerSeq: z.number().int().nullable(),
});
export type ContextSaved = z.infer<typeof ContextSaved>;

/** context.md's plan as Run would read it: the planner Run would use, and for the user's own plan its tasks or what is wrong. */
export const PlanCheck = z.object({
  planner: z.enum(['deterministic', 'llm']),
  /** Tasks in the "## Plan" section (0 for the LLM planner, which plans when Run starts). */
  tasks: z.number().int(),
  /** What Run would refuse, in the words it would use, and the 1-based line of context.md when there is one. */
  problem: z.object({ message: z.string(), line: z.number().int().nullable() }).nullable(),
});
export type PlanCheck = z.infer<typeof PlanCheck>;

export const CheckpointReason = z.enum(['decision_required', 'human_action']);

/** A checkpoint an agent raised, as the dialog shows it. */
export const GoalCheckpoint = z.object({
  sessionId: z.string(),
  resumeId: z.string(),
  agentName: z.string().nullable(),
  reason: CheckpointReason,
  message: z.string(),
  options: z.array(z.string()),
  status: z.enum(['pending', 'answered', 'resuming', 'resumed']),
  answer: GoalJson.nullable(),
  answeredBy: z.string().nullable(),
  createdAt: z.number().int(),
});
export type GoalCheckpoint = z.infer<typeof GoalCheckpoint>;

export const ProgressEntry = z.object({
  ts: z.number().int(),
  level: z.enum(['info', 'warn', 'error']),
  message: z.string(),
});
export type ProgressEntry = z.infer<typeof ProgressEntry>;

const BySession = z.object({ sessionId: SessionId });

/**
 * The user's answer to "the workspace has uncommitted changes" before a goal run (which commits each task): commit
 * them first (with DIRTY_TREE_COMMIT_MESSAGE), stash them (git stash, back with `git stash pop`), or run the goal in a
 * new worktree session instead (the answer's view is then that session's). Without an answer a run on a dirty tree
 * is refused with the DomainError reference DIRTY_TREE_REFERENCE, its issues naming the files (path DIRTY_TREE_FIELD).
 */
export const DirtyTreeAnswer = z.enum(['commit', 'stash', 'worktree']);
export type DirtyTreeAnswer = z.infer<typeof DirtyTreeAnswer>;
export const DIRTY_TREE_REFERENCE = 'DIRTY_TREE';
export const DIRTY_TREE_FIELD = 'dirtyTree';
export const DIRTY_TREE_COMMIT_MESSAGE = 'Work in progress, committed before a goal run';

const StartRun = z.object({ sessionId: SessionId, dirtyTree: DirtyTreeAnswer.optional() });

/** A task's commit as `git show` has it: header and --stat, then the patch (cut at `truncated`). */
export const TaskCommitView = z.object({ commit: z.string(), stat: z.string(), patch: z.string(), truncated: z.boolean() });
export type TaskCommitView = z.infer<typeof TaskCommitView>;

export const goalContract = {
  /** `.meta/context.md` of the session's workspace. */
  'goal.context': call(BySession, ContextFile),
  /**
   * Writes context.md (durably) and records the edit in the ledger. `expectedSha256` is the hash the editor loaded
   * (null: there was no file): if the file changed on disk since, CONFLICT and nothing is written.
   */
  'goal.saveContext': call(
    z.object({
      sessionId: SessionId,
      text: z.string().max(MAX_CONTEXT_CHARS, `context.md is at most ${MAX_CONTEXT_CHARS.toLocaleString('en')} characters`),
      expectedSha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected the SHA-256 goal.context returned').nullable().optional(),
    }),
    ContextSaved,
  ),
  /** Checks context.md's text (saved or not) with the same validation Run applies; nothing is written or run. */
  'goal.checkPlan': call(
    z.object({ text: z.string().max(MAX_CONTEXT_CHARS, `context.md is at most ${MAX_CONTEXT_CHARS.toLocaleString('en')} characters`) }),
    PlanCheck,
  ),
  /** `.meta/session.json`, or why it cannot be read. */
  'goal.sessionState': call(BySession, SessionStateRead),
  'goal.view': call(BySession, GoalRunView),
  'goal.start': call(StartRun, GoalRunView),
  'goal.halt': call(BySession, GoalRunView),
  'goal.resume': call(StartRun, GoalRunView),
  /** Reverts the task's commits (git revert, history kept) and marks it pending again. */
  'goal.rollback': call(z.object({ sessionId: SessionId, taskId: z.string().min(1, 'name the task to roll back').max(200) }), RollbackResult),
  /** What one of the plan's task commits changed (files and diff). */
  'goal.commit': call(z.object({ sessionId: SessionId, commit: z.string().regex(/^[0-9a-f]{7,64}$/, 'expected a commit id (hex)') }), TaskCommitView),
  /** Checkpoints of the session still waiting for the user (oldest first); also after a reload or a host restart. */
  'goal.checkpoints': call(BySession, z.array(GoalCheckpoint)),
  /**
   * The user's answer: a decision_required checkpoint takes one of its options; a human_action one takes free text
   * ("Continue" when there is nothing to say). The first answer wins: `accepted` false means one was already stored.
   */
  'goal.answer': call(
    z.object({
      sessionId: SessionId,
      resumeId: z.string().min(1).max(200),
      answer: z.string().trim().min(1, 'the answer is empty: pick an option, or type what you did').max(10_000, 'an answer is at most 10,000 characters'),
    }),
    z.object({ accepted: z.boolean(), checkpoint: GoalCheckpoint }),
  ),
  /** The goal run's view, live: a list of one, named by its session. */
  'goal.watchRun': liveList(BySession, GoalRunView, (view) => view.sessionId),
  /** The session's pending checkpoints, live: raised ones join, answered ones leave. */
  'goal.watchCheckpoints': liveList(BySession, GoalCheckpoint, (checkpoint) => checkpoint.resumeId),
  /** log_progress lines: the last `replay` kept (default 200), then live ones. */
  'goal.progress': stream(
    z.object({ sessionId: SessionId, replay: z.number().int().min(0).max(5000).optional() }),
    ProgressEntry,
    (entry) => Math.max(1, entry.message.length),
  ),
};
