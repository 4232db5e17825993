import { useEffect, useState } from 'react';
import type { HarnessSession } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

/** Newer record of a session wins: a change that arrives before the list does is not overwritten by it. */
function merge(current: HarnessSession[], incoming: HarnessSession[]): HarnessSession[] {
  const byId = new Map(current.map((s) => [s.id, s]));
  for (const session of incoming) {
    const known = byId.get(session.id);
    if (!known || known.updatedAt <= session.updatedAt) byId.set(session.id, session);
  }
  return [...byId.values()].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

/**
 * The session's stored harness sessions, live: the changes stream is opened before the list is fetched (no change
 * falls between), again on every (re)connection; after a host restart the list shows them stopped and resumable.
 */
export function useHarnessSessions(sessionId: string): { sessions: HarnessSession[]; error: string | null; merge: (s: HarnessSession) => void } {
  const client = useConnection((s) => s.client);
  const [sessions, setSessions] = useState<HarnessSession[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!client) return;
    let cancelled = false;
    const changes = client.subscribe(
      'harness.changes',
      { sessionId },
      {
        onItem: (session) => setSessions((current) => merge(current, [session])),
        onEnd: (end) => {
          if (!cancelled && end && end.code !== 'CLOSED') setError(`live updates stopped: ${end.message}`);
        },
      },
    );
    client
      .call('harness.list', { sessionId })
      .then((listed) => {
        if (cancelled) return;
        setSessions((current) => merge(current, listed));
        setError(null);
      })
      .catch((e: unknown) => {
        if (!cancelled && !client.isClosed) setError(errorMessage(e));
      });
    return () => {
      cancelled = true;
      changes.dispose();
    };
  }, [client, sessionId]);
  return { sessions, error, merge: (session) => setSessions((current) => merge(current, [session])) };
}
