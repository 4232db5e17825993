import { useState } from 'react';
import type { Session } from '../../src-preload/contract';
import { useConnection } from '../bridge/connectionStore';
import { SessionAgents } from '../features/agents/SessionAgents';
import { HarnessPanel } from '../features/harness/HarnessPanel';
import { errorMessage } from '../ui/errorMessage';
import { SessionGoal } from '../features/goal/SessionGoal';
import { SessionRuns } from '../features/runs/SessionRuns';
import { openTerminal } from '../features/terminals/terminalActions';
import { TerminalCard } from '../features/terminals/TerminalCard';
import { useSessionTerminals } from '../features/terminals/useSessionTerminals';

/** One session's card stream. Stays mounted (hidden) while another session or the ledger is shown. */
export function SessionView({ session, hidden }: { session: Session; hidden: boolean }) {
  const client = useConnection((s) => s.client);
  const terminals = useSessionTerminals(session.id, session.status);
  const [error, setError] = useState<string | null>(null);
  const closed = session.status === 'closed';

  async function newTerminal(): Promise<void> {
    if (!client) return;
    setError(null);
    try {
      await openTerminal(client, session.id);
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <section className="session-view" hidden={hidden} aria-label={`Session ${session.name}`} data-testid="session-view" data-session-id={session.id}>
      <header className="session-header">
        <div>
          <h2 data-testid="session-title">{session.name}</h2>
          <p className="muted workspace-path" title={session.workspace}>
            {session.workspace}
          </p>
        </div>
        <button
          type="button"
          data-testid="new-terminal"
          disabled={!client || closed}
          title="New terminal (Ctrl+Shift+T)"
          aria-keyshortcuts="Control+Shift+T"
          onClick={() => void newTerminal()}
        >
          New terminal
        </button>
      </header>
      {error && (
        <p className="item-error" role="alert">
          {error}
        </p>
      )}
      {closed && <p className="notice">This session is closed. Reopen it from the sidebar to start terminals again.</p>}
      <SessionGoal session={session} hidden={hidden} />
      <SessionAgents session={session} />
      <HarnessPanel session={session} />
      <SessionRuns session={session} />
      <div className="card-stream">
        {terminals.length === 0 && !closed && <p className="muted empty">No terminals open. New terminal (Ctrl+Shift+T) starts one.</p>}
        {terminals.map((terminal) => (
          <TerminalCard key={terminal.id} terminal={terminal} />
        ))}
      </div>
    </section>
  );
}
