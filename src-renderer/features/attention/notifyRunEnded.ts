import { goToSession } from '../../ui/attention/goToWaiting';
import { useSessions } from '../../ui/sessionsStore';
import { notifier } from './notifier';
import { windowWatched } from './windowAttention';

export interface EndedRun {
  runId: string;
  sessionId: string;
  agent: string;
  /** The run's outcome as the host words it: completed, failed, stopped, timeout… */
  outcome: string;
}

/**
 * An agent run has ended: a notification when the user is not looking at the window (they see the card otherwise).
 * Clicking it shows the run's card.
 */
export function notifyRunEnded(run: EndedRun): void {
  if (windowWatched()) return;
  const session = useSessions.getState().sessions.find((s) => s.id === run.sessionId)?.name ?? 'a session';
  const failed = run.outcome !== 'completed';
  notifier().notify({
    title: failed ? `${run.agent} ended: ${run.outcome}` : `${run.agent} finished`,
    body: `In ${session}`,
    tag: `run:${run.runId}`,
    onClick: () => goToSession(run.sessionId, `[data-testid="run-card"][data-run-id="${CSS.escape(run.runId)}"]`),
  });
}
