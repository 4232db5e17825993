import './runs.css';
import type { Run, Session } from '../../../src-preload/contract';
import { BacklogNotices } from './BacklogNotices';
import { RunsPanel } from './RunsPanel';
import { RunTerminalCard } from './RunTerminalCard';
import { useRuns } from './runsStore';

const none: readonly string[] = [];
const noRuns: readonly Run[] = [];

/** The process-run part of a session's view: the Runs panel, watcher events, and the cards of the runs opened. */
export function SessionRuns({ session }: { session: Session }) {
  const openCards = useRuns((s) => s.openCards[session.id] ?? none);
  const runs = useRuns((s) => s.bySession[session.id] ?? noRuns);
  // A card shows once the host has described its run: a card reopened after a reload waits for the list, and one for
  // a run the host does not know (another home in this tab, say) never shows.
  const shown = openCards.filter((runId) => runs.some((run) => run.run_id === runId));
  return (
    <div className="session-runs" data-testid="session-runs">
      <RunsPanel sessionId={session.id} open={session.status === 'open'} />
      <BacklogNotices sessionId={session.id} />
      {shown.length > 0 && (
        <div className="card-stream exec-run-cards">
          {shown
            .slice()
            .reverse()
            .map((runId) => (
              <RunTerminalCard key={runId} sessionId={session.id} runId={runId} />
            ))}
        </div>
      )}
    </div>
  );
}
