import { useMemo } from 'react';
import type { AcpConversation } from '../../../src-preload/contract';
import { useLiveList } from '../../ui/useLiveList';

/**
 * The session's ACP conversations, live (acp.watch), newest first; after a host restart they show stopped. `loaded`
 * is false until the first snapshot came.
 */
export function useAcpConversations(sessionId: string): { conversations: AcpConversation[]; loaded: boolean; error: string | null } {
  const { items, loaded, error } = useLiveList('acp.watch', { sessionId });
  const conversations = useMemo(() => [...items].sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id)), [items]);
  return { conversations, loaded, error };
}
