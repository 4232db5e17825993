import { useCallback, useEffect, useState } from 'react';
import type { Snapshot } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

export type TimelineState = { kind: 'loading' } | { kind: 'ready'; snapshots: Snapshot[] } | { kind: 'failed'; message: string };

/**
 * A session's snapshots, oldest first. The timeline is a call, not a live list: it is read again whenever `version`
 * changes (the caller passes its turns, which change when a turn starts, ends or is restored) and on reload().
 */
export function useTimeline(sessionId: string, version: unknown, enabled: boolean): TimelineState & { reload(): void } {
  const client = useConnection((s) => s.client);
  const [state, setState] = useState<TimelineState>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!client || !enabled) return;
    let live = true;
    client.call('changes.timeline', { sessionId }).then(
      (snapshots) => live && setState({ kind: 'ready', snapshots }),
      (e: unknown) => live && setState({ kind: 'failed', message: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, [client, sessionId, version, enabled, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}
