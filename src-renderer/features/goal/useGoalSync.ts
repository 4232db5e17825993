import { useEffect, useRef } from 'react';
import { useConnection, type OmniClient } from '../../bridge/connectionStore';
import { useLiveList } from '../../ui/useLiveList';
import { useGoal } from './goalStore';

/** Credit for the progress stream, in characters: a replay of long lines must not stall on the default window. */
const PROGRESS_CREDIT = 200_000;

function refreshState(client: OmniClient, sessionId: string, isCancelled: () => boolean): void {
  client
    .call('goal.sessionState', { sessionId })
    .then((read) => {
      // The read that finds session.json corrupt also moves it aside, so no later read can report it again: that one
      // answer is kept even if the view that asked has gone meanwhile (a remount, a new connection).
      if (!isCancelled() || read.problem?.kind === 'corrupt') useGoal.getState().setStateRead(sessionId, read);
    })
    .catch(() => {
      // A lost connection: the next client reads it again.
    });
}

/**
 * Keeps one session's goal data live: the run view and the pending checkpoints (live lists, so nothing falls between
 * a list and its changes; checkpoints come from the host's table, so the dialog is back after a reload or a host
 * restart), session.json (read again with each view) and the progress log.
 */
export function useGoalSync(sessionId: string): void {
  const client = useConnection((s) => s.client);
  const run = useLiveList('goal.watchRun', { sessionId });
  const checkpoints = useLiveList('goal.watchCheckpoints', { sessionId });
  const view = run.items[0];
  const lastPhase = useRef<{ sessionId: string; phase: string } | null>(null);

  useEffect(() => {
    if (view) useGoal.getState().setView(sessionId, view);
  }, [sessionId, view]);
  useEffect(() => {
    if (run.error) useGoal.getState().setViewError(sessionId, run.error);
  }, [sessionId, run.error]);
  useEffect(() => {
    if (checkpoints.loaded) useGoal.getState().setCheckpoints(sessionId, checkpoints.items);
  }, [sessionId, checkpoints.items, checkpoints.loaded]);

  const { refresh: refreshCheckpoints } = checkpoints;
  useEffect(() => {
    if (!view) return;
    // The checkpoint list hears this host's answers; one given elsewhere (another host process on the same home, the
    // CLI) shows as the run moving on, so the list is read afresh when the phase changes.
    const before = lastPhase.current;
    if (before && before.sessionId === sessionId && before.phase !== view.phase) refreshCheckpoints();
    lastPhase.current = { sessionId, phase: view.phase };
  }, [sessionId, view, refreshCheckpoints]);

  // The view carries the last valid state; a problem with the file itself only the file read can tell.
  useEffect(() => {
    if (!client) return;
    let cancelled = false;
    refreshState(client, sessionId, () => cancelled);
    return () => {
      cancelled = true;
    };
  }, [client, sessionId, view]);

  useEffect(() => {
    if (!client) return;
    useGoal.getState().resetProgress(sessionId);
    const progress = client.subscribe(
      'goal.progress',
      { sessionId },
      { onItem: (entry) => useGoal.getState().addProgress(sessionId, entry) },
      { credit: PROGRESS_CREDIT },
    );
    return () => progress.dispose();
  }, [client, sessionId]);
}
