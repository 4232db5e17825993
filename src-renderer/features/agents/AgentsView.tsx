import './agents.css';
import { useAgents } from './agentsStore';
import { AgentManifestCard } from './AgentManifestCard';
import { BrokenAgentCard } from './BrokenAgentCard';
import { useAgentList } from './useAgentList';

/** The Agents tab: every installed agent with its manifest, then the ones that cannot load and why. */
export function AgentsView() {
  const { refresh } = useAgentList();
  const agents = useAgents((s) => s.agents);
  const broken = useAgents((s) => s.broken);
  const warnings = useAgents((s) => s.listWarnings);
  const error = useAgents((s) => s.listError);

  return (
    <section
      className="agents-view"
      data-testid="agents-view"
      data-list-state={error ? 'error' : agents ? 'loaded' : 'loading'}
      aria-label="Installed agents"
    >
      <header className="agents-header">
        <h2>Agents</h2>
        <p className="muted">Start one from a session: pick it above the session's cards and type a prompt.</p>
        <button type="button" className="secondary" data-testid="agents-refresh" onClick={refresh}>
          Refresh
        </button>
      </header>
      {error && (
        <p className="item-error" role="alert" data-testid="agents-error">
          {error}
        </p>
      )}
      {warnings.length > 0 && (
        <ul className="notice" aria-label="Warnings">
          {warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      {!agents && !error && <p className="muted">Loading…</p>}
      {agents?.length === 0 && <p className="muted empty">No agents installed.</p>}
      <div className="agent-grid">
        {agents?.map((agent) => (
          <AgentManifestCard key={`${agent.source}:${agent.name}`} agent={agent} />
        ))}
      </div>
      {broken.length > 0 && (
        <>
          <h3>Cannot load ({broken.length})</h3>
          <div className="agent-grid">
            {broken.map((agent) => (
              <BrokenAgentCard key={agent.folder} agent={agent} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
