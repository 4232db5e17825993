import { z } from 'zod';
import type { MetaState } from '../metaShell/metaState';
import type { JsonValue, SessionState } from '../metaShell/sessionState';

/** Which agent asked a checkpoint the run waits on; "breaker" is the host's own, raised by the circuit breaker. */
export const CHECKPOINT_ROLES = ['planner', 'executor', 'verifier', 'breaker'] as const;
export type CheckpointRole = (typeof CHECKPOINT_ROLES)[number];

const DetailSchema = z.object({ agent: z.string().optional(), verifier: z.string().optional(), instructions: z.string().optional() });

/**
 * The orchestrator's own part of session.json, under variables.goalRun (the spec's task objects are strict, and the
 * run must survive a restart): how each task is run, the checkpoint the run waits on, feedback for a retried task,
 * and why the run stopped.
 */
const GoalRunRecordSchema = z.object({
  planner: z.enum(['deterministic', 'llm']).optional(),
  details: z.record(z.string(), DetailSchema).default({}),
  checkpoint: z.object({ resumeId: z.string(), agent: z.string(), role: z.enum(CHECKPOINT_ROLES), taskId: z.string().nullable() }).optional(),
  /** What a retried task's executor is told: the verifier's gaps, or the user's answer to the breaker. */
  guidance: z.record(z.string(), z.string()).default({}),
  /** How many times the breaker tripped (its checkpoints need distinct resume ids). */
  breakerTrips: z.number().int().min(0).default(0),
  /** Set when the run stopped: "halted" (by the user or the breaker) or "failed" (an error), with the reason. */
  stopped: z.object({ kind: z.enum(['halted', 'failed']), message: z.string() }).optional(),
});

export type GoalRunRecord = z.infer<typeof GoalRunRecordSchema>;
export type PendingCheckpoint = NonNullable<GoalRunRecord['checkpoint']>;

export const RECORD_KEY = 'variables.goalRun';

/** The record in a state; a missing or unreadable one (edited by hand) reads as empty rather than stopping the run. */
export function readRecord(state: SessionState | null): GoalRunRecord {
  const parsed = GoalRunRecordSchema.safeParse(state?.variables.goalRun ?? {});
  return parsed.success ? parsed.data : GoalRunRecordSchema.parse({});
}

/** Changes the record through update_state (read–modify–write of this one key; the loop is its only writer). */
export async function patchRecord(meta: MetaState, change: (record: GoalRunRecord) => void): Promise<SessionState> {
  const record = readRecord(await meta.read());
  change(record);
  return meta.updateState(RECORD_KEY, JSON.parse(JSON.stringify(record)) as JsonValue);
}
