import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Session } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useSessions } from '../../ui/sessionsStore';
import { SessionWaitingBadge } from './SessionWaitingBadge';

/** One session in the sidebar: select it, rename it in place, close or reopen it. */
export function SessionItem({ session }: { session: Session }) {
  const client = useConnection((s) => s.client);
  const selected = useSessions((s) => s.selectedId === session.id);
  const [renaming, setRenaming] = useState(false);
  const [draft, setDraft] = useState(session.name);
  const [error, setError] = useState<string | null>(null);

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
            onClick={() => client && void run(() => client.call('session.close', { id: session.id }))}
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
    </li>
  );
}
