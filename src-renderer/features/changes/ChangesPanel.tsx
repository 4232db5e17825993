import './changes.css';
import { useState } from 'react';
import type { ChangeTurn, Session } from '../../../src-preload/contract';
import { useReview } from '../../ui/changes/reviewStore';
import { useSessionTurns } from '../../ui/changes/useSessionTurns';
import { Timeline } from './Timeline';
import { TurnList } from './TurnList';
import { useTimeline } from './useTimeline';

/**
 * The session's Changes: every turn since the session began (each opens its review) and the rewind timeline of
 * snapshots. Folded by default; Ctrl+Shift+D opens it.
 */
export function ChangesPanel({ session }: { session: Session }) {
  const open = useReview((s) => !!s.changesPanelOpen[session.id]);
  const toggle = useReview((s) => s.toggleChangesPanel);
  const openReview = useReview((s) => s.openReview);
  const turns = useSessionTurns(session.id);
  const timeline = useTimeline(session.id, turns.items, open);
  const [restored, setRestored] = useState<ChangeTurn | null>(null);

  return (
    <section className="card changes-panel" aria-label="Changes" data-testid="changes-panel" data-session-id={session.id}>
      <header className="card-header">
        <button
          type="button"
          className="icon-button changes-toggle"
          data-testid="changes-toggle"
          aria-expanded={open}
          aria-keyshortcuts="Control+Shift+D"
          title="Show or hide the session's changes (Ctrl+Shift+D)"
          onClick={() => toggle(session.id)}
        >
          {open ? '▾' : '▸'} Changes
        </button>
        <span className="muted">
          {!turns.loaded ? '' : turns.items.length === 1 ? '1 turn' : `${turns.items.length} turns`}
        </span>
      </header>
      {open && (
        <div className="changes-body">
          {turns.error && (
            <p className="item-error" role="alert" data-testid="changes-error">
              {turns.error}
            </p>
          )}
          {!turns.loaded && !turns.error && (
            <p className="muted" role="status">
              Loading the session's turns…
            </p>
          )}
          {turns.loaded && turns.items.length === 0 && <p className="muted">No agent turn yet: what agents change shows here.</p>}
          <TurnList turns={turns.items} onOpen={(turnId) => openReview(session.id, turnId)} />
          {restored && (
            <p className="notice" role="status" data-testid="restore-done">
              Restored. The restore is a turn of its own (“{restored.title}”): restore the snapshot before it to undo it.
            </p>
          )}
          <h3 className="changes-heading">Timeline</h3>
          {timeline.kind === 'loading' && (
            <p className="muted" role="status">
              Loading the snapshots…
            </p>
          )}
          {timeline.kind === 'failed' && (
            <p className="item-error" role="alert" data-testid="timeline-error">
              The timeline cannot be shown: {timeline.message}{' '}
              <button type="button" className="icon-button" onClick={timeline.reload}>
                Try again
              </button>
            </p>
          )}
          {timeline.kind === 'ready' && (
            <Timeline
              snapshots={timeline.snapshots}
              onRestored={(turn) => {
                setRestored(turn);
                timeline.reload();
              }}
            />
          )}
        </div>
      )}
    </section>
  );
}
