import { useMemo } from 'react';
import type { HarnessSession } from '../../../src-preload/contract';
import { useLiveList } from '../../ui/useLiveList';

/**
 * The session's stored harness sessions, live (harness.watch), in the order they were created; after a host restart
 * the list shows them stopped and resumable.
 */
export function useHarnessSessions(sessionId: string): { sessions: HarnessSession[]; error: string | null } {
  const { items, error } = useLiveList('harness.watch', { sessionId });
  const sessions = useMemo(() => [...items].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)), [items]);
  return { sessions, error };
}
