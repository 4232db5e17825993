import type { Database } from '../store/database';
import { EventKind } from './eventKinds';
import type { EventLog } from './eventLog';

/**
 * Terminals die with the host. After a clean shutdown each one's `terminal.closed` is logged; after a crash or a
 * kill they are still open in the log, so at startup they are closed there too (reason "host-lost"), and a replay
 * agrees with the restarted host, which has no terminals. Returns how many were closed.
 */
export function closeLostTerminals(db: Database, log: EventLog): number {
  const lost = db
    .prepare<[string, string], { session_id: string; subject: string }>(
      `SELECT o.session_id, o.subject FROM event_log o
        WHERE o.kind = ? AND o.data IS NULL
          AND NOT EXISTS (SELECT 1 FROM event_log c WHERE c.kind = ? AND c.subject = o.subject AND c.data IS NULL)`,
    )
    .all(EventKind.terminalOpened, EventKind.terminalClosed);
  for (const { session_id, subject } of lost) {
    log.append({ sessionId: session_id, kind: EventKind.terminalClosed, subject, payload: { reason: 'host-lost' } });
  }
  log.settle();
  return lost.length;
}
