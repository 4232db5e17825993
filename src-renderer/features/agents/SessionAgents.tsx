import './agents.css';
import type { Session } from '../../../src-preload/contract';
import { ConsentCards } from '../consent/ConsentCards';
import { GrantsPanel } from '../consent/GrantsPanel';
import { AgentLauncher } from './AgentLauncher';
import { RunCard } from './RunCard';
import { useSessionRuns } from './useSessionRuns';

/**
 * The agent part of a session's view: consent prompts first (they block an agent until answered), then the
 * launcher and the session's grants, then a card per run, newest first.
 */
export function SessionAgents({ session }: { session: Session }) {
  const open = session.status === 'open';
  const runIds = useSessionRuns(session.id);
  return (
    <div className="session-agents" data-testid="session-agents">
      <ConsentCards sessionId={session.id} open={open} />
      <div className="agent-controls">
        <AgentLauncher sessionId={session.id} disabled={!open} />
        <GrantsPanel sessionId={session.id} />
      </div>
      {runIds.length > 0 && (
        <div className="run-cards">
          {runIds
            .slice()
            .reverse()
            .map((runId) => (
              <RunCard key={runId} runId={runId} />
            ))}
        </div>
      )}
    </div>
  );
}
