import { useEffect } from 'react';
import { useSessions } from '../../ui/sessionsStore';
import { useLiveList } from '../../ui/useLiveList';

/**
 * Keeps the sessions store in step with the host: the live session list (session.watch) replaces the store's list on
 * its snapshot and on every change after it, on every connection.
 */
export function useSessionsSync(): void {
  const { items, loaded } = useLiveList('session.watch', { includeClosed: true });
  useEffect(() => {
    if (loaded) useSessions.getState().replaceAll([...items]);
  }, [items, loaded]);
}
