import { useState } from 'react';
import type { HarnessSession, Terminal } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { TurnChangesBadge } from '../../ui/changes/TurnChangesBadge';
import { errorMessage } from '../../ui/errorMessage';
import { HarnessOutputCard } from './HarnessOutputCard';

const LABEL: Record<HarnessSession['frontend'], string> = { 'claude-code': 'Claude Code', 'codex-cli': 'Codex' };

/**
 * One stored harness session: what runs (or ran) and where, its continuation key, the command line to copy, and
 * Resume (relaunch with the stored key in its origin cwd) or Stop. A headless one shows its output below. What an
 * action changes comes back through the live list (harness.watch), which hears it before the call is answered.
 */
export function HarnessSessionRow({
  session,
  disabled,
  onTerminal,
}: {
  session: HarnessSession;
  disabled: boolean;
  onTerminal: (terminal: Terminal) => void;
}) {
  const client = useConnection((s) => s.client);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [prompt, setPrompt] = useState('');
  // Another CLI of the same provider could continue the conversation; one of another provider is refused by the host.
  const [resumeWith, setResumeWith] = useState<HarnessSession['frontend']>(session.frontend);
  const running = session.status === 'running' || session.status === 'starting';
  const headless = session.interactionMode === 'headless';

  // One action at a time: a double click must not resume the conversation twice (the host would refuse the second).
  const [busy, setBusy] = useState(false);
  async function act(work: () => Promise<void>): Promise<void> {
    setError(null);
    setBusy(true);
    try {
      await work();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  const resume = () =>
    act(async () => {
      if (!client) return;
      const launched = await client.call('harness.resume', { id: session.id, frontend: resumeWith, ...(headless ? { prompt } : {}) });
      if (launched.terminal) onTerminal(launched.terminal);
      setPrompt('');
    });
  const stop = () => act(async () => void (client && (await client.call('harness.stop', { id: session.id }))));
  const copy = () =>
    void navigator.clipboard
      ?.writeText(session.displayCommand ?? '')
      .then(() => setCopied(true))
      .catch(() => setError('the clipboard refused the text; select the command and copy it by hand'));

  return (
    <li className="harness-session" data-testid="harness-session" data-harness-id={session.id} data-status={session.status}>
      <div className="harness-session-head">
        <strong>{LABEL[session.frontend]}</strong>
        <span className="muted">{session.interactionMode}</span>
        <span className={`harness-status harness-status-${session.status}`} data-testid="harness-status">
          {session.status}
          {session.exitCode !== null && session.status === 'exited' ? ` (${session.exitCode})` : ''}
        </span>
        <span className="muted" title="The conversation's id at the provider (its continuation key)" data-testid="harness-key">
          {session.continuation.provider} · {session.continuation.key ?? 'no key yet'}
        </span>
        {session.launchedAt !== null && <TurnChangesBadge sessionId={session.sessionId} kind="harness_run" sourceId={session.id} seq={session.launchedAt} />}
      </div>
      {session.statusReason && <small className="muted">{session.statusReason}</small>}
      {session.displayCommand && (
        <div className="harness-command">
          <code data-testid="harness-display-command">{session.displayCommand}</code>
          <button type="button" className="secondary outline" data-testid="harness-copy" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      <div className="harness-actions">
        {running ? (
          <button type="button" className="secondary" data-testid="harness-stop" disabled={!client || busy} onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <>
            {headless && (
              <input
                aria-label="Prompt for the resumed conversation"
                placeholder="Prompt to continue with"
                value={prompt}
                onChange={(event) => setPrompt(event.target.value)}
              />
            )}
            <select aria-label="Resume with" data-testid="harness-resume-with" value={resumeWith} onChange={(event) => setResumeWith(event.target.value as HarnessSession['frontend'])}>
              {(Object.keys(LABEL) as HarnessSession['frontend'][]).map((frontend) => (
                <option key={frontend} value={frontend}>
                  {LABEL[frontend]}
                </option>
              ))}
            </select>
            <button
              type="button"
              data-testid="harness-resume"
              disabled={!client || busy || disabled || session.continuation.key === undefined || (headless && prompt.trim() === '')}
              title={session.continuation.key === undefined ? 'The CLI never reported its conversation id: nothing to resume' : `Relaunch in ${session.originCwd} with the stored key`}
              onClick={() => void resume()}
            >
              Resume
            </button>
          </>
        )}
      </div>
      {error && (
        <p className="item-error" role="alert" data-testid="harness-error">
          {error}
        </p>
      )}
      {headless && <HarnessOutputCard harnessId={session.id} launchedAt={session.launchedAt} />}
    </li>
  );
}
