import './runs.css';
import type { Session } from '../../../src-preload/contract';
import { BacklogNotices } from './BacklogNotices';
import { RunsPanel } from './RunsPanel';
import { RunTerminalCard } from './RunTerminalCard';
import { useRuns } from './runsStore';

const none: readonly string[] = [];

/** The process-run part of a session's view: the Runs panel, watcher events, and the cards of the runs opened. */
export function SessionRuns({ session }: { session: Session }) {
  const openCards = useRuns((s) => s.openCards[session.id] ?? none);
  return (
    <div className="session-runs" data-testid="session-runs">
      <RunsPanel sessionId={session.id} open={session.status === 'open'} />
      <BacklogNotices sessionId={session.id} />
      {openCards.length > 0 && (
        <div className="card-stream exec-run-cards">
          {openCards
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
