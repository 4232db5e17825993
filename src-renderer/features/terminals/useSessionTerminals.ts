import { useEffect } from 'react';
import type { Terminal } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { useTerminals } from './terminalsStore';

const none: Terminal[] = [];

/**
 * The session's terminals, fetched from the host on every (re)connection: after a reload the cards come back,
 * after a host restart the terminals that died with it disappear.
 */
export function useSessionTerminals(sessionId: string, sessionStatus: string): Terminal[] {
  const client = useConnection((s) => s.client);
  useEffect(() => {
    if (!client) return;
    let cancelled = false;
    client
      .call('terminal.list', { sessionId })
      .then((terminals) => {
        if (!cancelled) useTerminals.getState().setForSession(sessionId, terminals);
      })
      .catch(() => {
        // Lost connection: the next client lists again.
      });
    return () => {
      cancelled = true;
    };
  }, [client, sessionId, sessionStatus]);
  return useTerminals((s) => s.bySession[sessionId] ?? none);
}
