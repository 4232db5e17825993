import { useEffect } from 'react';
import type { Run } from '../../../src-preload/contract';
import { useLiveList } from '../../ui/useLiveList';
import { useRuns } from './runsStore';

const none: Run[] = [];

/**
 * The session's process runs, kept live (exec.watchRuns) and merged into the runs store, where the run cards read
 * them; the store keeps whichever record of a run is the more recent (runList.ts).
 */
export function useSessionExecRuns(sessionId: string): Run[] {
  const { items, error } = useLiveList('exec.watchRuns', { sessionId });
  useEffect(() => {
    useRuns.getState().mergeRuns(sessionId, items);
  }, [sessionId, items]);
  useEffect(() => {
    useRuns.getState().setListError(sessionId, error && `live run updates stopped: ${error}`);
  }, [sessionId, error]);
  return useRuns((s) => s.bySession[sessionId] ?? none);
}
