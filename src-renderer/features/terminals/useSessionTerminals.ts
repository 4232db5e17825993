import { useEffect } from 'react';
import type { Terminal } from '../../../src-preload/contract';
import { useLiveList } from '../../ui/useLiveList';
import { useTerminals } from './terminalsStore';

const none: Terminal[] = [];

/**
 * The session's terminals, live (terminal.watch), kept in the terminals store: after a reload the cards come back,
 * a terminal closed elsewhere (another window, the session closing) goes, and after a host restart the terminals that
 * died with it disappear.
 */
export function useSessionTerminals(sessionId: string): Terminal[] {
  const { items, loaded } = useLiveList('terminal.watch', { sessionId });
  useEffect(() => {
    if (loaded) useTerminals.getState().setForSession(sessionId, [...items]);
  }, [sessionId, items, loaded]);
  return useTerminals((s) => s.bySession[sessionId] ?? none);
}
