import { useState, type FormEvent } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { spawnRun } from './runActions';

/**
 * "Run a command": starts it as the user in the session's workspace, in the background (the shell tool's spawn), and
 * opens its card. A PTY run gets a real terminal (colours, prompts, programs that need a tty) and a keys bar.
 */
export function RunCommandForm({ sessionId, disabled }: { sessionId: string; disabled: boolean }) {
  const client = useConnection((s) => s.client);
  const [command, setCommand] = useState('');
  const [pty, setPty] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canRun = !!client && !disabled && !busy && command.trim() !== '';

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!client || !canRun) return;
    setBusy(true);
    setError(null);
    try {
      await spawnRun(client, sessionId, command, pty);
      setCommand('');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="run-command" onSubmit={(e) => void submit(e)} aria-label="Run a command" data-testid="exec-run-form">
      <input
        type="text"
        aria-label="Command to run"
        placeholder="Run a command in the workspace (Enter)"
        data-testid="exec-run-command"
        value={command}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `exec-run-error-${sessionId}` : undefined}
        onChange={(e) => setCommand(e.target.value)}
      />
      <label className="run-command-pty" title="Run in a pseudo-terminal: for interactive programs (shells, REPLs, editors)">
        <input type="checkbox" role="switch" data-testid="exec-run-pty" checked={pty} disabled={disabled} onChange={(e) => setPty(e.target.checked)} />
        PTY
      </label>
      <button type="submit" data-testid="exec-run-submit" disabled={!canRun} aria-busy={busy}>
        Run
      </button>
      {error && (
        <small id={`exec-run-error-${sessionId}`} className="item-error" role="alert" data-testid="exec-run-error">
          {error}
        </small>
      )}
    </form>
  );
}
