import type { GoalCheckpoint, SessionStateRead } from '../../../src-preload/contract';
import { MetaState, SessionStateCorruptError, SessionStateInvalidError, type CheckpointRecord } from './metaShell';

/** A stored checkpoint as the dialog shows it (no claim or journal details). */
export function checkpointView(record: CheckpointRecord): GoalCheckpoint {
  return {
    sessionId: record.sessionId,
    resumeId: record.resumeId,
    agentName: record.agentName,
    reason: record.reason,
    message: record.message,
    options: record.options,
    status: record.status,
    answer: record.answer,
    answeredBy: record.answeredBy,
    createdAt: record.createdAt,
  };
}

/**
 * `.meta/session.json` for the task board: the state, or the typed problem to show instead of a board. A corrupt file
 * has been moved aside by MetaState (keptAt says where); an invalid one stays and `field` names what to fix.
 */
export async function readSessionStateFile(workspace: string): Promise<SessionStateRead> {
  try {
    return { state: await new MetaState(workspace).read(), problem: null };
  } catch (error) {
    if (error instanceof SessionStateCorruptError) return { state: null, problem: { kind: 'corrupt', message: error.message, field: null, keptAt: error.keptAt } };
    if (error instanceof SessionStateInvalidError) return { state: null, problem: { kind: 'invalid', message: error.message, field: error.field, keptAt: null } };
    throw error;
  }
}
