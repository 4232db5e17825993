import { useEffect } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { holdSessionTurns, noTurns, useTurns, type SessionTurns } from './turnsStore';

/** A session's turns, live, from the one subscription the session has however many components ask. */
export function useSessionTurns(sessionId: string | null): SessionTurns {
  const client = useConnection((s) => s.client);
  useEffect(() => {
    if (!client || !sessionId) return;
    return holdSessionTurns(client, sessionId);
  }, [client, sessionId]);
  return useTurns((s) => (sessionId ? (s.sessions[sessionId] ?? noTurns) : noTurns));
}
