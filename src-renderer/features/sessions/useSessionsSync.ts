import { useEffect } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { useSessions } from '../../ui/sessionsStore';

/**
 * Keeps the sessions store in step with the host for the life of each connection: subscribe to changes first,
 * then fetch the list, so nothing created in between is missed (duplicates are merged by id).
 */
export function useSessionsSync(): void {
  const client = useConnection((s) => s.client);
  useEffect(() => {
    if (!client) return;
    const { apply, replaceAll } = useSessions.getState();
    const changes = client.subscribe('session.changes', {}, { onItem: apply });
    let cancelled = false;
    client
      .call('session.list', { includeClosed: true })
      .then((sessions) => {
        if (!cancelled) replaceAll(sessions);
      })
      .catch(() => {
        // A failed list means the connection dropped; the next connection lists again.
      });
    return () => {
      cancelled = true;
      changes.dispose();
    };
  }, [client]);
}
