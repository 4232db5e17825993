import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Session, Terminal } from '../../src-preload/contract';
import { useConnection } from '../bridge/connectionStore';
import { AcpPanel } from '../features/acp/AcpPanel';
import { ChangesPanel } from '../features/changes/ChangesPanel';
import { SessionAgents } from '../features/agents/SessionAgents';
import { ConsentCards } from '../features/consent/ConsentCards';
import { useConsent } from '../features/consent/consentStore';
import { GrantsPanel } from '../features/consent/GrantsPanel';
import { SessionGoal } from '../features/goal/SessionGoal';
import { HarnessPanel } from '../features/harness/HarnessPanel';
import { SessionRuns } from '../features/runs/SessionRuns';
import { openTerminal } from '../features/terminals/terminalActions';
import { TerminalCard } from '../features/terminals/TerminalCard';
import { useTerminals } from '../features/terminals/terminalsStore';
import { useSessionTerminals } from '../features/terminals/useSessionTerminals';
import { WorktreeBar } from '../features/worktrees/WorktreeBar';
import { errorMessage } from '../ui/errorMessage';

/** A terminal another feature started (a CLI session of the harness) joins the session's terminals, focused. */
function showTerminal(terminal: Terminal): void {
  useTerminals.getState().add(terminal);
  useTerminals.getState().requestFocus(terminal.id);
}

/**
 * One session's page: its goal, agents (with consent's prompts and grants), agent (ACP) conversations, CLI
 * sessions, process runs and terminals. It composes several features, so it lives in app/: a feature never imports
 * another feature, and what one needs of another (who is asking for consent, where a launched terminal goes) is
 * passed in from here.
 * Stays mounted (hidden) while another session or the ledger is shown.
 */
export function SessionView({ session, hidden }: { session: Session; hidden: boolean }) {
  const client = useConnection((s) => s.client);
  // Prompts carry the agent, not the run: any open prompt of an agent in the session is what its live run waits on.
  const askingAgents = useConsent(useShallow((s) => (s.prompts[session.id] ?? []).map((p) => p.agentId)));
  const terminals = useSessionTerminals(session.id);
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
      {session.worktree && <WorktreeBar session={{ ...session, worktree: session.worktree }} />}
      <SessionGoal session={session} hidden={hidden} />
      <ChangesPanel session={session} />
      <SessionAgents
        session={session}
        prompts={<ConsentCards sessionId={session.id} open={session.status === 'open'} />}
        grants={<GrantsPanel sessionId={session.id} />}
        askingAgents={askingAgents}
      />
      <AcpPanel session={session} askingAgents={askingAgents} />
      <HarnessPanel session={session} onTerminal={showTerminal} />
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
