import type { EventLog } from '../eventlog/eventLog';
import { EventKind } from '../eventlog/eventKinds';
import type { ProgressEntry, ProgressLevel } from './metaShell';
import type { Database } from '../store/database';

/**
 * The session's last `limit` log_progress lines (oldest first), from the event log where ProgressLog keeps them, so
 * the progress view shows what happened before a reload or a host restart. Pending events are written first.
 */
export function recentProgress(db: Database, events: EventLog, sessionId: string, limit: number): ProgressEntry[] {
  if (limit <= 0) return [];
  events.settle();
  // Served by the partial index on (kind, subject) of state events (data IS NULL), not a scan of the session's output.
  const rows = db
    .prepare<[string, string, number], { ts: number; payload: string | null }>(
      'SELECT ts, payload FROM event_log WHERE kind = ? AND data IS NULL AND session_id = ? ORDER BY seq DESC LIMIT ?',
    )
    .all(EventKind.hostProgress, sessionId, limit);
  const entries: ProgressEntry[] = [];
  for (const row of rows.reverse()) {
    const payload = row.payload === null ? null : (JSON.parse(row.payload) as { level?: unknown; message?: unknown });
    if (!payload || typeof payload.message !== 'string') continue;
    const level: ProgressLevel = payload.level === 'warn' || payload.level === 'error' ? payload.level : 'info';
    entries.push({ sessionId, ts: row.ts, level, message: payload.message });
  }
  return entries;
}
