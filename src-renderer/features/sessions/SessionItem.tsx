import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Session, SessionRunning } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useSessions } from '../../ui/sessionsStore';
import { CloseSessionDialog } from './CloseSessionDialog';
import { runningTotal } from './runningWords';
import { SessionWaitingBadge } from './SessionWaitingBadge';

/** One session in the sidebar: select it, rename it in place, close or reopen it. */
export function SessionItem({ session }: { session: Session }) {
  const client = useConnection((s) => s.client);
  const selected = useSessions((s) => s.selectedId === session.id);
  const [renaming, setRenaming] = useState(false);
  const [draft, setDraft] = useState(session.name);
  const [error, setError] = useState<string | null>(null);
  // What runs in the session, while the user is asked whether to stop it by closing.
  const [asking, setAsking] = useState<SessionRunning | null>(null);
  const [closing, setClosing] = useState(false);

  const run = async (action: () => Promise<Session>): Promise<boolean> => {
    setError(null);
    try {
      useSessions.getState().apply({ kind: 'updated', session: await action() });
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    }
  };

  async function submitRename(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!client) return;
    if (await run(() => client.call('session.rename', { id: session.id, name: draft }))) setRenaming(false);
  }

  /** Closes at once when nothing runs in the session; otherwise asks first, naming what would stop. */
  async function requestClose(): Promise<void> {
    if (!client || closing) return;
    setError(null);
    setClosing(true);
    try {
      const running = await client.call('session.running', { id: session.id });
      if (runningTotal(running) > 0) {
        setAsking(running);
        return;
      }
      await run(() => client.call('session.close', { id: session.id }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setClosing(false);
    }
  }

  async function confirmClose(): Promise<void> {
    if (!client) return;
    setClosing(true);
    await run(() => client.call('session.close', { id: session.id }));
    setClosing(false);
    setAsking(null);
  }

  // Focus goes back to the close button as the dialog goes (useModalDialog).
  const cancelClose = (): void => setAsking(null);

  function cancelOnEscape(event: KeyboardEvent): void {
    if (event.key !== 'Escape') return;
    setRenaming(false);
    setError(null);
  }

  const closed = session.status === 'closed';
  return (
    <li className={`session-item${selected ? ' selected' : ''}${closed ? ' closed' : ''}`} data-testid="session-item" data-session-id={session.id}>
      {renaming ? (
        <form className="rename-form" onSubmit={(e) => void submitRename(e)} aria-label={`Rename ${session.name}`}>
          <input
            autoFocus
            aria-label="New name"
            value={draft}
            aria-invalid={error ? true : undefined}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={cancelOnEscape}
          />
        </form>
      ) : (
        <button
          type="button"
          className="session-select"
          aria-current={selected ? 'true' : undefined}
          title={`${session.name} — ${session.workspace}`}
          onClick={() => useSessions.getState().select(session.id)}
        >
          <span className="session-name">{session.name}</span>
          {closed && <span className="badge">closed</span>}
        </button>
      )}
      {!renaming && <SessionWaitingBadge session={session} />}
      <span className="session-actions">
        {!renaming && (
          <button
            type="button"
            className="icon-button"
            aria-label={`Rename session ${session.name}`}
            title="Rename"
            disabled={!client}
            onClick={() => {
              setDraft(session.name);
              setRenaming(true);
            }}
          >
            ✎
          </button>
        )}
        {closed ? (
          <button
            type="button"
            className="icon-button"
            aria-label={`Reopen session ${session.name}`}
            title="Reopen"
            disabled={!client}
            onClick={() => client && void run(() => client.call('session.reopen', { id: session.id }))}
          >
            ↺
          </button>
        ) : (
          <button
            type="button"
            className="icon-button"
            aria-label={`Close session ${session.name}`}
            title="Close session"
            disabled={!client}
            aria-busy={(closing && !asking) || undefined}
            onClick={() => void requestClose()}
          >
            ✕
          </button>
        )}
      </span>
      {error && (
        <small className="item-error" role="alert">
          {error}
        </small>
      )}
      {asking && <CloseSessionDialog sessionName={session.name} running={asking} busy={closing} onConfirm={() => void confirmClose()} onCancel={cancelClose} />}
    </li>
  );
}
