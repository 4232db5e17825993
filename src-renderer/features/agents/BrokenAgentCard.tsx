import type { BrokenAgent } from '../../../src-preload/contract';

/** A folder whose manifest does not validate: listed with every error, and never run. */
export function BrokenAgentCard({ agent }: { agent: BrokenAgent }) {
  return (
    <article className="card agent-broken" data-testid="agent-broken" aria-label={`Broken agent in ${agent.folder}`}>
      <header className="card-header">
        <span className="card-title">
          <strong>Cannot load</strong> <code>{agent.folder}</code>
        </span>
        <span className="badge">{agent.source}</span>
      </header>
      <ul className="broken-errors">
        {agent.errors.map((e, i) => (
          <li key={i}>{e}</li>
        ))}
      </ul>
    </article>
  );
}
