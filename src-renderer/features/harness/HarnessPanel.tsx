import './harness.css';
import { useState } from 'react';
import type { HarnessCliFrontend, Session, Terminal } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { HarnessSessionRow } from './HarnessSessionRow';
import { useHarnessSessions } from './useHarnessSessions';

/**
 * Claude Code and Codex sessions in this workspace session: start one (interactive in a terminal card, or headless
 * with a prompt, its output in a card), and resume a stored one with its conversation key, also after a restart.
 * An interactive one's terminal goes to `onTerminal`: the session page shows and focuses it among its terminals.
 */
export function HarnessPanel({ session, onTerminal }: { session: Session; onTerminal: (terminal: Terminal) => void }) {
  const client = useConnection((s) => s.client);
  const { sessions, error: listError } = useHarnessSessions(session.id);
  const [mode, setMode] = useState<'interactive' | 'headless'>('interactive');
  const [prompt, setPrompt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const closed = session.status === 'closed';

  async function start(frontend: HarnessCliFrontend): Promise<void> {
    if (!client) return;
    setError(null);
    setWarnings([]);
    setBusy(true);
    try {
      const launched = await client.call('harness.start', {
        sessionId: session.id,
        frontend,
        interactionMode: mode,
        ...(prompt.trim() ? { prompt } : {}),
      });
      setWarnings(launched.warnings);
      if (launched.terminal) onTerminal(launched.terminal);
      setPrompt('');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  const disabled = !client || closed || busy || (mode === 'headless' && prompt.trim() === '');
  return (
    <section className="harness-panel" data-testid="harness-panel" aria-label="Claude Code and Codex sessions">
      <h3>
        CLI sessions <span className="muted">({sessions.length})</span>
      </h3>
      <div className="harness-launcher">
        <select aria-label="How the CLI runs" data-testid="harness-mode" value={mode} onChange={(event) => setMode(event.target.value as 'interactive' | 'headless')}>
          <option value="interactive">Interactive (terminal)</option>
          <option value="headless">Headless (prompt, output card)</option>
        </select>
        <input
          aria-label="First prompt"
          data-testid="harness-prompt"
          placeholder={mode === 'headless' ? 'Prompt (required)' : 'First prompt (optional)'}
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
        />
        <button type="button" data-testid="new-claude-code" disabled={disabled} onClick={() => void start('claude-code')}>
          New Claude Code session
        </button>
        <button type="button" data-testid="new-codex" disabled={disabled} onClick={() => void start('codex-cli')}>
          New Codex session
        </button>
      </div>
      {error && (
        <p className="item-error" role="alert" data-testid="harness-start-error">
          {error}
        </p>
      )}
      {listError && (
        <small className="item-error" role="alert">
          CLI sessions cannot be shown: {listError}
        </small>
      )}
      {warnings.map((warning) => (
        <small key={warning} className="muted harness-warning">
          {warning}
        </small>
      ))}
      {sessions.length > 0 && (
        <ul className="harness-sessions">
          {sessions
            .slice()
            .reverse()
            .map((s) => (
              <HarnessSessionRow key={s.id} session={s} disabled={closed} onTerminal={onTerminal} />
            ))}
        </ul>
      )}
    </section>
  );
}
