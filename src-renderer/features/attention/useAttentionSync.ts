import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useConnection } from '../../bridge/connectionStore';
import { useAttention } from '../../ui/attention/attentionStore';
import { useSessions } from '../../ui/sessionsStore';
import { AttentionFollower } from './attentionFollower';

/**
 * Keeps the attention store in step with the host for every open session. While the connection is down what was
 * waiting stays shown (frozen, not cleared); a new connection follows again and its replay replaces it.
 */
export function useAttentionSync(): void {
  const client = useConnection((s) => s.client);
  const openIds = useSessions(useShallow((s) => s.sessions.filter((session) => session.status === 'open').map((session) => session.id)));
  const follower = useRef<AttentionFollower | null>(null);

  useEffect(() => {
    if (!client) return;
    const following = new AttentionFollower(client, (sessionId, kind, items) => useAttention.getState().setWaiting(sessionId, kind, items));
    follower.current = following;
    return () => {
      following.dispose();
      if (follower.current === following) follower.current = null;
    };
  }, [client]);

  useEffect(() => {
    if (!client) return;
    follower.current?.follow(openIds);
    const { waiting, forget } = useAttention.getState();
    for (const sessionId of Object.keys(waiting)) if (!openIds.includes(sessionId)) forget(sessionId);
  }, [client, openIds]);
}
