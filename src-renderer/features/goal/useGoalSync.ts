import { useEffect } from 'react';
import type { Subscription } from '../../../src-preload/rpc';
import { useConnection, type OmniClient } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
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
 * Keeps one session's goal data live: the run view, session.json, pending checkpoints and the progress log. On every
 * (re)connection each stream is opened before its list is fetched, so nothing falls between the two; pending
 * checkpoints come from the host's table, so the dialog is back after a reload or a host restart.
 */
export function useGoalSync(sessionId: string): void {
  const client = useConnection((s) => s.client);
  useEffect(() => {
    if (!client) return;
    const goal = useGoal.getState();
    let cancelled = false;
    const isCancelled = () => cancelled;
    const live = (error: { code: string } | undefined): boolean => !cancelled && !!error && error.code !== 'CLOSED';
    const subscriptions: Subscription[] = [];
    const listCheckpoints = (): void => {
      client
        .call('goal.checkpoints', { sessionId })
        .then((list) => {
          if (!cancelled) goal.setCheckpoints(sessionId, list);
        })
        .catch(() => undefined);
    };
    let lastPhase: string | null = null;

    subscriptions.push(
      client.subscribe(
        'goal.runChanges',
        { sessionId },
        {
          onItem: (view) => {
            goal.setView(sessionId, view);
            // The checkpoint stream hears this host's answers; one given elsewhere (another host process on the same
            // home, the CLI) shows as the run moving on, so the list is read again when the phase changes.
            if (lastPhase !== null && view.phase !== lastPhase) listCheckpoints();
            lastPhase = view.phase;
            // The view carries the last valid state; a problem with the file itself only the file read can tell.
            refreshState(client, sessionId, isCancelled);
          },
          onEnd: (error) => {
            if (live(error)) goal.setViewError(sessionId, errorMessage(error));
          },
        },
      ),
    );
    subscriptions.push(
      client.subscribe(
        'goal.checkpointChanges',
        { sessionId },
        {
          onItem: ({ kind, checkpoint }) => (kind === 'raised' ? goal.checkpointRaised(checkpoint) : goal.checkpointAnswered(checkpoint)),
        },
      ),
    );
    goal.resetProgress(sessionId);
    subscriptions.push(
      client.subscribe('goal.progress', { sessionId }, { onItem: (entry) => useGoal.getState().addProgress(sessionId, entry) }, { credit: PROGRESS_CREDIT }),
    );
    listCheckpoints();
    refreshState(client, sessionId, isCancelled);

    return () => {
      cancelled = true;
      for (const subscription of subscriptions) subscription.dispose();
    };
  }, [client, sessionId]);
}
