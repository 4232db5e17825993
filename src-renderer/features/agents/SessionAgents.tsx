import './agents.css';
import type { ReactNode } from 'react';
import type { Session } from '../../../src-preload/contract';
import { AgentLauncher } from './AgentLauncher';
import { RunCard } from './RunCard';
import { useSessionRuns } from './useSessionRuns';

interface Props {
  session: Session;
  /** The session's consent prompts, shown first: they block an agent until answered. */
  prompts: ReactNode;
  /** The session's grants, next to the launcher. */
  grants: ReactNode;
  /** Agents with an unanswered prompt in this session: their live runs say they wait on it. */
  askingAgents: readonly string[];
}

/**
 * The agent part of a session's view: consent prompts first (they block an agent until answered), then the
 * launcher and the session's grants, then a card per run, newest first. Consent is another feature: the session
 * page (app/SessionView) passes its prompts, grants and who is asking in.
 */
export function SessionAgents({ session, prompts, grants, askingAgents }: Props) {
  const open = session.status === 'open';
  const runIds = useSessionRuns(session.id);
  return (
    <div className="session-agents" data-testid="session-agents">
      {prompts}
      <div className="agent-controls">
        <AgentLauncher sessionId={session.id} disabled={!open} />
        {grants}
      </div>
      {runIds.length > 0 && (
        <div className="run-cards">
          {runIds
            .slice()
            .reverse()
            .map((runId) => (
              <RunCard key={runId} runId={runId} askingAgents={askingAgents} />
            ))}
        </div>
      )}
    </div>
  );
}
