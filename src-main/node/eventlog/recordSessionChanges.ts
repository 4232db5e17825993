import type { Disposable } from '../../../src-preload/rpc';
import type { SessionService } from '../sessions/sessionService';
import { EventKind } from './eventKinds';
import type { EventLog } from './eventLog';

/**
 * Logs every session change with the whole record. Written at once (durable), not batched: the change is already
 * committed to the sessions table, and a replay must not miss a rename because the host died 50 ms later.
 */
export function recordSessionChanges(log: EventLog, sessions: SessionService): Disposable {
  return sessions.onDidChange(({ kind, session }) => {
    log.append(
      { sessionId: session.id, kind: kind === 'created' ? EventKind.sessionCreated : EventKind.sessionUpdated, payload: { ...session } },
      { durable: true },
    );
  });
}
