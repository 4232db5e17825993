import { useState } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { TurnChangesBadge } from '../../ui/changes/TurnChangesBadge';
import { OutcomeChip } from '../../ui/outcome/OutcomeChip';
import { errorMessage } from '../../ui/errorMessage';
import { useAgents } from './agentsStore';
import { OutputCard } from './OutputCard';
import { DeniedCalls } from './DeniedCalls';
import { controlRun, type RunControl } from './runActions';
import { runOutcome } from './runOutcome';


/** A run of an agent in the session: its state with Stop / Suspend / Resume, and its output cards. */
export function RunCard({ runId, askingAgents }: { runId: string; askingAgents: readonly string[] }) {
  const client = useConnection((s) => s.client);
  const run = useAgents((s) => s.runs[runId]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Prompts carry the agent, not the run: any open prompt of this agent in the session is what a live run waits on.
  // askingAgents are the agents with an open prompt in this run's session (the session page reads them from consent).
  const asking = !!run && run.info.state !== 'Terminated' && askingAgents.includes(run.info.agent);
  if (!run) return null;
  const { info } = run;
  const terminated = info.state === 'Terminated';
  const controllable = !terminated && !run.unavailable;
  const label = `${info.agent} run: ${info.prompt}`;

  async function control(action: RunControl): Promise<void> {
    if (!client) return;
    setBusy(true);
    setError(null);
    try {
      await controlRun(client, runId, action);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="card run-card" data-testid="run-card" data-run-id={runId} data-state={run.unavailable ? 'Unavailable' : info.state} data-outcome={info.outcome} aria-label={label}>
      <header className="card-header">
        <span className="card-title" title={info.prompt}>
          <strong>{info.agent}</strong> <span className="muted">“{info.prompt}”</span>
        </span>
        <OutcomeChip outcome={runOutcome(info, run.unavailable)} testId="run-state" title={run.stateNote ?? undefined} />
        <TurnChangesBadge sessionId={info.sessionId} kind="agent_run" sourceId={runId} />
        <span className="card-tools">
          {controllable && info.state === 'Active' && (
            <button type="button" className="icon-button" data-testid="run-suspend" disabled={!client || busy} onClick={() => void control('suspend')}>
              Suspend
            </button>
          )}
          {controllable && info.state === 'Suspended' && (
            <button type="button" className="icon-button" data-testid="run-resume" disabled={!client || busy} onClick={() => void control('resume')}>
              Resume
            </button>
          )}
          {controllable && (
            <button type="button" className="icon-button" data-testid="run-stop" disabled={!client || busy} onClick={() => void control('stop')}>
              Stop
            </button>
          )}
        </span>
      </header>
      {error && (
        <small className="item-error" role="alert">
          {error}
        </small>
      )}
      <div className="run-output">
        {asking && controllable && (
          <p className="notice run-asking" data-testid="run-asking">
            Waiting for your answer to its consent request above.
          </p>
        )}
        {run.cards.length === 0 && controllable && !asking && <p className="muted empty">Waiting for output…</p>}
        {run.cards.map((card) => (
          <OutputCard key={card.id} card={card} />
        ))}
        {run.artifacts.length > 0 && (
          <ul className="run-artifacts" aria-label="Artifacts">
            {run.artifacts.map((artifact) => (
              <li key={artifact.id}>
                <span className="badge">{artifact.artifactKind}</span> <code>{artifact.path}</code>
              </li>
            ))}
          </ul>
        )}
        {run.denied.length > 0 && <DeniedCalls calls={run.denied} />}
        {run.errors.map((e, i) => (
          <p key={i} className="run-error" data-testid="run-error">
            <strong>{e.code}</strong>: {e.message}
            {e.hint && <span className="muted"> {e.hint}</span>}
          </p>
        ))}
        {info.error && !run.errors.some((e) => e.code === info.error?.code && e.message === info.error.message) && (
          <p className="run-error" data-testid="run-error">
            <strong>{info.error.code}</strong>: {info.error.message}
            {info.error.hint && <span className="muted"> {info.error.hint}</span>}
          </p>
        )}
      </div>
    </article>
  );
}
