import { useMemo } from 'react';
import type { ConsentGrant } from '../../../src-preload/contract';
import { useLiveList } from '../../ui/useLiveList';

/** The session's revocable grants, live (consent.watchGrants), oldest first. */
export function useSessionGrants(sessionId: string): ConsentGrant[] {
  const { items } = useLiveList('consent.watchGrants', { sessionId });
  return useMemo(() => [...items].sort((a, b) => a.grantedAt - b.grantedAt), [items]);
}
