import type { Run } from '../../../src-preload/contract';
import { commandLine } from './runFormat';
import { useRuns } from './runsStore';
import { useSessionBacklog } from './useSessionBacklog';

/** The newest messages shown; the host bounds the backlog itself, this only keeps the panel short. */
const SHOWN = 50;

/**
 * Watcher matches of the session's runs: each is a message for the session's agent, delivered on its next turn.
 * Listed newest first, with whether the agent has had it yet.
 */
export function BacklogNotices({ sessionId }: { sessionId: string }) {
  const messages = useSessionBacklog(sessionId);
  const runs = useRuns((s) => s.bySession[sessionId]);
  if (messages.length === 0) return null;
  const commandOf = (runId: string): string => {
    const run: Run | undefined = runs?.find((r) => r.run_id === runId);
    return run ? commandLine(run.argv) : runId;
  };
  const shown = messages.slice(-SHOWN).reverse();
  const pending = messages.filter((m) => !m.delivered).length;
  return (
    <section className="exec-backlog" data-testid="exec-backlog" aria-label="Watcher events for the agent">
      <h4>
        Watcher events <span className="muted">({pending} waiting for the agent)</span>
      </h4>
      <ul>
        {shown.map((message) => (
          <li key={message.id} className="exec-backlog-item" data-testid="exec-backlog-item" data-delivered={message.delivered ? 'true' : 'false'}>
            <span className="badge">{message.event}</span> <span className="exec-backlog-text">{message.text}</span>{' '}
            <span className={`badge ${message.delivered ? '' : 'exec-pending'}`}>{message.delivered ? 'delivered to the agent' : 'pending'}</span>{' '}
            <time className="muted" dateTime={new Date(message.ts).toISOString()}>
              {new Date(message.ts).toLocaleTimeString()}
            </time>{' '}
            <button
              type="button"
              className="icon-button"
              data-testid="exec-backlog-open"
              aria-label={`Open the output of ${commandOf(message.run_id)}`}
              title="Open the run's output"
              onClick={() => useRuns.getState().openCard(sessionId, message.run_id)}
            >
              Open run
            </button>
          </li>
        ))}
      </ul>
      {messages.length > SHOWN && <small className="muted">{messages.length - SHOWN} older events not shown</small>}
    </section>
  );
}
