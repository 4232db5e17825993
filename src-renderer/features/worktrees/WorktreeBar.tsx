import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { DiscardPlan, MergeMode, MergeResult, Session, WorktreeStatus } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import './worktrees.css';

type Panel = { kind: 'none' } | { kind: 'commit' } | { kind: 'merge' } | { kind: 'discard'; plan: DiscardPlan | null };
type Outcome = { kind: 'none' } | { kind: 'ok'; text: string } | { kind: 'conflicts'; paths: string[] } | { kind: 'error'; text: string };

/**
 * A worktree session's bar: its branch and base, what is uncommitted and not yet merged, and the way back to the base:
 * Commit…, Merge… (fast-forward or a merge commit; conflicts listed, nothing rewritten), Discard… (after a list of
 * exactly what would be lost). Each opens in place; Escape or Cancel backs out.
 */
export function WorktreeBar({ session }: { session: Session & { worktree: NonNullable<Session['worktree']> } }) {
  const client = useConnection((s) => s.client);
  const [status, setStatus] = useState<WorktreeStatus | null>(null);
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [mode, setMode] = useState<MergeMode>('fast-forward');
  const firstField = useRef<HTMLInputElement & HTMLButtonElement>(null);
  // The button that opened the panel: focus goes back to it when the panel closes.
  const opener = useRef<HTMLButtonElement | null>(null);
  const closed = session.status === 'closed';

  const refresh = useCallback(async () => {
    if (!client) return;
    try {
      setStatus(await client.call('worktree.status', { sessionId: session.id }));
    } catch (e) {
      setOutcome({ kind: 'error', text: errorMessage(e) });
    }
  }, [client, session.id]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    if (panel.kind !== 'none') firstField.current?.focus();
  }, [panel.kind]);

  async function run(work: () => Promise<Outcome>): Promise<void> {
    setBusy(true);
    try {
      setOutcome(await work());
    } catch (e) {
      setOutcome({ kind: 'error', text: errorMessage(e) });
    } finally {
      setBusy(false);
      void refresh();
    }
  }

  function open(next: Panel, from: HTMLButtonElement): void {
    opener.current = from;
    setOutcome({ kind: 'none' });
    setPanel(next);
    if (next.kind === 'discard' && client) {
      void run(async () => {
        setPanel({ kind: 'discard', plan: await client.call('worktree.discardPlan', { sessionId: session.id }) });
        return { kind: 'none' };
      });
    }
  }

  function close(): void {
    setPanel({ kind: 'none' });
    opener.current?.focus();
  }

  const cancelOnEscape = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  };

  function commit(event: FormEvent): void {
    event.preventDefault();
    if (!client) return;
    void run(async () => {
      const made = await client.call('worktree.commit', { sessionId: session.id, message });
      setMessage('');
      setPanel({ kind: 'none' });
      return { kind: 'ok', text: `Committed ${made.id.slice(0, 7)} “${made.subject}” on ${session.worktree.branch}` };
    });
  }

  function merge(): void {
    if (!client) return;
    void run(async () => {
      const result: MergeResult = await client.call('worktree.merge', { sessionId: session.id, mode });
      setPanel({ kind: 'none' });
      if (result.kind === 'conflicts') return { kind: 'conflicts', paths: result.paths };
      return { kind: 'ok', text: `Merged into ${session.worktree.base} (${result.mode === 'fast-forward' ? 'fast-forward' : 'merge commit'} ${result.commit.slice(0, 7)})` };
    });
  }

  function discard(plan: DiscardPlan): void {
    if (!client) return;
    void run(async () => {
      const done = await client.call('worktree.discard', { sessionId: session.id, token: plan.token });
      setPanel({ kind: 'none' });
      return { kind: 'ok', text: `Removed ${done.removed} and deleted ${done.deletedBranch}` };
    });
  }

  const gone = status !== null && !status.exists;
  const unavailable = !client || busy || gone;

  return (
    <section className="worktree-bar" aria-label="Worktree" data-testid="worktree-bar">
      <div className="worktree-line">
        <span>
          <code data-testid="worktree-branch">{session.worktree.branch}</code>
          <span className="muted"> from </span>
          <code data-testid="worktree-base">{session.worktree.base}</code>
        </span>
        {status && (
          <span className="muted" data-testid="worktree-status">
            {gone ? 'worktree discarded' : `${status.uncommitted.length} uncommitted · ${status.ahead} commit${status.ahead === 1 ? '' : 's'} not in ${status.base}`}
          </span>
        )}
        <span className="worktree-actions">
          <button type="button" className="secondary" data-testid="worktree-commit" disabled={unavailable || closed} onClick={(e) => open({ kind: 'commit' }, e.currentTarget)}>
            Commit…
          </button>
          <button type="button" className="secondary" data-testid="worktree-merge" disabled={unavailable} onClick={(e) => open({ kind: 'merge' }, e.currentTarget)}>
            Merge…
          </button>
          <button type="button" className="secondary" data-testid="worktree-discard" disabled={unavailable} onClick={(e) => open({ kind: 'discard', plan: null }, e.currentTarget)}>
            Discard…
          </button>
        </span>
      </div>

      {panel.kind === 'commit' && (
        <form className="worktree-panel" aria-label="Commit the worktree" onSubmit={commit} onKeyDown={cancelOnEscape}>
          <label>
            Commit message
            <input ref={firstField} data-testid="worktree-commit-message" value={message} autoComplete="off" onChange={(e) => setMessage(e.target.value)} />
          </label>
          <small className="muted">Every change in the worktree ({status?.uncommitted.length ?? '?'} file(s)) goes into the commit.</small>
          <div className="worktree-buttons">
            <button type="submit" data-testid="worktree-commit-confirm" disabled={busy || message.trim() === ''}>
              Commit
            </button>
            <button type="button" className="secondary" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}

      {panel.kind === 'merge' && (
        <div className="worktree-panel" role="group" aria-label={`Merge ${session.worktree.branch} into ${session.worktree.base}`} onKeyDown={cancelOnEscape}>
          <fieldset>
            <legend>
              Merge into <code>{session.worktree.base}</code> in {session.worktree.repo}
            </legend>
            <label>
              <input ref={firstField} type="radio" name={`merge-mode-${session.id}`} checked={mode === 'fast-forward'} onChange={() => setMode('fast-forward')} />
              Fast-forward (only if {session.worktree.base} has not moved on)
            </label>
            <label>
              <input type="radio" name={`merge-mode-${session.id}`} checked={mode === 'merge-commit'} onChange={() => setMode('merge-commit')} />
              Merge commit
            </label>
          </fieldset>
          <div className="worktree-buttons">
            <button type="button" data-testid="worktree-merge-confirm" disabled={busy} onClick={merge}>
              Merge
            </button>
            <button type="button" className="secondary" onClick={close}>
              Cancel
            </button>
          </div>
        </div>
      )}

      {panel.kind === 'discard' && (
        <div className="worktree-panel" role="group" aria-label="Confirm discard of the worktree" data-testid="worktree-discard-plan" onKeyDown={cancelOnEscape}>
          {!panel.plan ? (
            <p aria-busy="true">Listing what would be lost…</p>
          ) : (
            <>
              <p>
                Discarding closes the session, removes the worktree and deletes <code>{session.worktree.branch}</code>.{' '}
                {panel.plan.uncommitted.length + panel.plan.commits.length === 0 ? 'Nothing would be lost: everything is in ' + session.worktree.base + '.' : 'This would be lost:'}
              </p>
              {panel.plan.uncommitted.length > 0 && (
                <>
                  <h4>Uncommitted files</h4>
                  <ul data-testid="worktree-lost-files">
                    {panel.plan.uncommitted.map((line) => (
                      <li key={line}>
                        <code>{line}</code>
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {panel.plan.commits.length > 0 && (
                <>
                  <h4>Commits not in {session.worktree.base}</h4>
                  <ul data-testid="worktree-lost-commits">
                    {panel.plan.commits.map((c) => (
                      <li key={c.id}>
                        <code>{c.id.slice(0, 7)}</code> {c.subject}
                      </li>
                    ))}
                  </ul>
                </>
              )}
              <div className="worktree-buttons">
                <button ref={firstField} type="button" className="contrast" data-testid="worktree-discard-confirm" disabled={busy} onClick={() => discard(panel.plan!)}>
                  Discard worktree and branch
                </button>
                <button type="button" className="secondary" onClick={close}>
                  Cancel
                </button>
              </div>
            </>
          )}
        </div>
      )}

      {outcome.kind === 'ok' && (
        <small role="status" data-testid="worktree-result">
          {outcome.text}
        </small>
      )}
      {outcome.kind === 'conflicts' && (
        <div role="alert" className="item-error" data-testid="worktree-conflicts">
          The merge stopped on conflicts and was aborted; nothing changed. Conflicting files:
          <ul>
            {outcome.paths.map((path) => (
              <li key={path}>
                <code>{path}</code>
              </li>
            ))}
          </ul>
          Merge {session.worktree.base} into the branch in the worktree and resolve them there, or use a merge commit after fixing them.
        </div>
      )}
      {outcome.kind === 'error' && (
        <small className="item-error" role="alert" data-testid="worktree-error">
          {outcome.text}
        </small>
      )}
    </section>
  );
}
