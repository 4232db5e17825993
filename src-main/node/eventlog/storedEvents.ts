import type { Database } from '../store/database';
import type { LoggedEvent } from './loggedEvent';

interface Row {
  session_id: string;
  seq: number;
  ts: number;
  kind: string;
  subject: string | null;
  payload: string | null;
  data: Buffer | null;
}

export interface EventRange {
  /** Only events after this seq (default 0: from the start). */
  afterSeq?: number;
  /** Only events up to and including this seq (default: the last one). */
  throughSeq?: number;
}

/**
 * A session's stored events in seq order. Works on any connection, the read-only ones of tools and tests included;
 * it sees only what the event log has written (EventLog.events flushes first).
 */
export function readSessionEvents(db: Database, sessionId: string, range: EventRange = {}): LoggedEvent[] {
  const rows = db
    .prepare<[string, number, number], Row>(
      'SELECT session_id, seq, ts, kind, subject, payload, data FROM event_log WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq',
    )
    .all(sessionId, range.afterSeq ?? 0, range.throughSeq ?? Number.MAX_SAFE_INTEGER);
  return rows.map((row) => ({
    sessionId: row.session_id,
    seq: row.seq,
    ts: row.ts,
    kind: row.kind,
    subject: row.subject,
    payload: row.payload === null ? null : (JSON.parse(row.payload) as unknown),
    data: row.data === null ? null : row.data.toString('utf8'),
  }));
}
