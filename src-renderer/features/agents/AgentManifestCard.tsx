import type { AgentInfo } from '../../../src-preload/contract';
import { useSessions } from '../../ui/sessionsStore';
import { pickAgentForSession } from './pickAgent';
import { formatBytes, formatCpu } from './quotas';

/** One installed agent, as its manifest declares it. */
export function AgentManifestCard({ agent }: { agent: AgentInfo }) {
  const session = useSessions((s) => s.sessions.find((x) => x.id === s.selectedId && x.status === 'open'));

  function pickForSession(): void {
    if (session) pickAgentForSession(session.id, agent.name);
  }

  return (
    <article className="card agent-manifest" data-testid="agent-manifest" data-agent={agent.name} aria-label={`Agent ${agent.name}`}>
      <header className="card-header">
        <span className="card-title">
          <strong>{agent.name}</strong> <span className="muted">{agent.version}</span>
        </span>
        <span className="badge" data-testid="agent-source">
          {agent.source}
        </span>
        <span className="badge" data-testid="agent-sandbox" title="Sandbox mode">
          {agent.sandbox}
        </span>
      </header>
      {agent.description && (
        <p className="agent-description" data-testid="agent-description">
          {agent.description}
        </p>
      )}
      <dl className="manifest-fields">
        <dt>Capabilities</dt>
        <dd data-testid="agent-capabilities">
          {agent.capabilities.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            agent.capabilities.map((c) => (
              <code key={c} className="chip">
                {c}
              </code>
            ))
          )}
        </dd>
        {agent.oauthScopes.length > 0 && (
          <>
            <dt>OAuth scopes</dt>
            <dd>
              {agent.oauthScopes.map((s) => (
                <code key={s} className="chip">
                  {s}
                </code>
              ))}
            </dd>
          </>
        )}
        <dt>UI hints</dt>
        <dd>{agent.uiHints.length === 0 ? <span className="muted">none</span> : agent.uiHints.join(', ')}</dd>
        <dt>Quotas</dt>
        <dd>
          CPU {formatCpu(agent.cpuMillicores)}, memory {formatBytes(agent.memBytes)}
        </dd>
        <dt>Folder</dt>
        <dd className="manifest-folder" title={`manifest SHA-256 ${agent.manifestSha256}`}>
          <code>{agent.folder}</code>
        </dd>
      </dl>
      <footer className="manifest-actions">
        {agent.internal ? (
          <span className="muted" data-testid="agent-internal">
            Run by the goal run, not started by hand
          </span>
        ) : (
        <button
          type="button"
          className="secondary"
          data-testid="agent-use"
          disabled={!session}
          title={session ? `Pick ${agent.name} in ${session.name} and type a prompt` : 'Select an open session in the sidebar first'}
          onClick={pickForSession}
        >
          {session ? `Use in ${session.name}` : 'Use in a session'}
        </button>
        )}
      </footer>
      {agent.warnings.length > 0 && (
        <ul className="manifest-warnings" aria-label="Warnings">
          {agent.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
    </article>
  );
}
