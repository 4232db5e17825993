import { useEffect } from 'react';
import type { Run } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useRuns } from './runsStore';

const none: Run[] = [];

/**
 * The session's process runs, kept live: on every (re)connection the run changes stream is opened first and the list
 * fetched second, so no change falls between the two; the store keeps whichever record of a run is the more recent.
 */
export function useSessionExecRuns(sessionId: string): Run[] {
  const client = useConnection((s) => s.client);
  useEffect(() => {
    if (!client) return;
    const { mergeRuns, setListError } = useRuns.getState();
    let cancelled = false;
    const changes = client.subscribe(
      'exec.runChanges',
      { sessionId },
      {
        onItem: ({ run }) => mergeRuns(sessionId, [run]),
        onEnd: (error) => {
          // CLOSED: the connection went away; the next client subscribes again.
          if (!cancelled && error && error.code !== 'CLOSED') setListError(sessionId, `live run updates stopped: ${error.message}`);
        },
      },
    );
    client
      .call('exec.runs', { sessionId })
      .then((runs) => {
        if (cancelled) return;
        mergeRuns(sessionId, runs);
        setListError(sessionId, null);
      })
      .catch((error: unknown) => {
        if (!cancelled && !client.isClosed) setListError(sessionId, errorMessage(error));
      });
    return () => {
      cancelled = true;
      changes.dispose();
    };
  }, [client, sessionId]);
  return useRuns((s) => s.bySession[sessionId] ?? none);
}
