import './changes.css';
import { useEffect, useRef, useState } from 'react';
import { useReview } from '../../ui/changes/reviewStore';
import { verdictWords } from '../../ui/changes/turnModel';
import { useSessionTurns } from '../../ui/changes/useSessionTurns';
import type { DiffMode } from './diffLayout';
import { FileDiffView } from './FileDiffView';
import { ReviewFileList } from './ReviewFileList';
import { useTurnReview } from './useTurnReview';

const FOCUSABLE = 'button:not([disabled]), [tabindex]:not([tabindex="-1"]), input:not([disabled]), a[href]';

/** A modal keeps Tab inside it: past the last control focus goes to the first, and back. */
function keepTabInside(container: HTMLElement, event: globalThis.KeyboardEvent): void {
  const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (focusable.length === 0) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  const active = document.activeElement;
  const outside = !(active instanceof Node) || !container.contains(active);
  if (event.shiftKey && (active === first || active === container || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}

/** The open review, if any: one for the whole window, opened by any turn's badge or the Changes panel. */
export function ReviewHost() {
  const review = useReview((s) => s.review);
  if (!review) return null;
  return <ReviewDialog key={review.turnId} sessionId={review.sessionId} turnId={review.turnId} />;
}

/**
 * A turn's review: its files on the left, the selected file's diff on the right (unified or side by side), with
 * Accept / Reject for the file and for each hunk. Rejecting restores that part on disk; what is shown is the host's
 * answer, so a verdict the host did not take never looks taken. Escape closes it and focus goes back to the badge.
 */
function ReviewDialog({ sessionId, turnId }: { sessionId: string; turnId: string }) {
  const close = useReview((s) => s.closeReview);
  const turn = useSessionTurns(sessionId).items.find((t) => t.id === turnId) ?? null;
  const review = useTurnReview(turnId);
  const [mode, setMode] = useState<DiffMode>('unified');
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dialog.current?.focus();
    // Escape closes the review wherever focus is: a button that a verdict disables drops focus to the page's body.
    const onKeyDown = (event: globalThis.KeyboardEvent): void => {
      if (event.key === 'Tab' && dialog.current) {
        keepTabInside(dialog.current, event);
        return;
      }
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const inside = event.target instanceof Node && dialog.current?.contains(event.target);
      if (!inside && event.target !== document.body) return;
      event.preventDefault();
      close();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      const back = useReview.getState().returnFocus;
      if (back?.isConnected) back.focus();
    };
  }, [close]);

  const { files, diff } = review;
  const file = diff?.kind === 'ready' ? diff.value.file : null;
  const busy = review.pending !== null;
  return (
    <div className="review-backdrop">
      <div
        ref={dialog}
        className="review-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={turn ? `Changes of ${turn.agent}: ${turn.title}` : 'Changes of a turn'}
        data-testid="review"
        data-turn-id={turnId}
        tabIndex={-1}
      >
        <header className="review-header">
          <div className="review-title">
            <strong>{turn?.agent ?? 'Turn'}</strong> <span className="muted">{turn?.title ?? turnId}</span>
            {turn && (
              <span className={`badge review-verdict review-verdict-${turn.verdict}`} data-testid="review-turn-verdict">
                {verdictWords[turn.verdict]}
              </span>
            )}
          </div>
          <div className="review-mode" role="group" aria-label="Diff layout">
            <button type="button" className="icon-button" aria-pressed={mode === 'unified'} data-testid="review-unified" onClick={() => setMode('unified')}>
              Unified
            </button>
            <button type="button" className="icon-button" aria-pressed={mode === 'split'} data-testid="review-split" onClick={() => setMode('split')}>
              Side by side
            </button>
          </div>
          <button type="button" className="icon-button" data-testid="review-close" aria-label="Close the review (Escape)" onClick={close}>
            Close
          </button>
        </header>
        {files.kind === 'loading' && (
          <p className="muted review-message" role="status">
            Loading the turn's files…
          </p>
        )}
        {files.kind === 'failed' && (
          <p className="item-error review-message" role="alert" data-testid="review-error">
            The changes cannot be shown: {files.message}{' '}
            <button type="button" className="icon-button" onClick={review.reload}>
              Try again
            </button>
          </p>
        )}
        {files.kind === 'ready' && (
          <div className="review-body">
            <ReviewFileList files={files.value.files} skipped={files.value.skipped} selected={review.selected} onSelect={review.select} />
            <section className="review-file-pane" aria-label={review.selected ?? 'No file'}>
              {files.value.files.length === 0 && <p className="muted review-message">This turn changed no files.</p>}
              {review.actionError && (
                <p className="item-error" role="alert" data-testid="review-action-error">
                  {review.actionError}
                </p>
              )}
              {diff?.kind === 'loading' && (
                <p className="muted review-message" role="status">
                  Loading the diff…
                </p>
              )}
              {diff?.kind === 'failed' && (
                <p className="item-error review-message" role="alert" data-testid="review-error">
                  The diff of {review.selected} cannot be shown: {diff.message}
                </p>
              )}
              {file && diff?.kind === 'ready' && (
                <>
                  <div className="review-file-header" data-testid="review-file-header" data-verdict={file.verdict}>
                    <code>{file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}</code>
                    <span className="muted">{file.status}</span>
                    <span className={`badge review-verdict review-verdict-${file.verdict}`} data-testid="review-file-verdict">
                      {file.verdict}
                    </span>
                    <button
                      type="button"
                      className="icon-button"
                      data-testid="review-file-accept"
                      disabled={busy || file.verdict === 'accepted'}
                      onClick={() => void review.verdict('accepted')}
                    >
                      Accept file
                    </button>
                    <button
                      type="button"
                      className="icon-button"
                      data-testid="review-file-reject"
                      disabled={busy || file.verdict === 'rejected'}
                      title="Put the whole file back as it was before the turn (an added file is deleted, a deleted one comes back)"
                      onClick={() => void review.verdict('rejected')}
                    >
                      Reject file
                    </button>
                  </div>
                  {file.binary ? (
                    <p className="muted review-message" data-testid="review-binary">
                      {file.path} is a binary file: its content is not shown, but it can be accepted or rejected as a whole.
                    </p>
                  ) : diff.value.hunks.length === 0 ? (
                    <p className="muted review-message">No line changed (only the file's mode or name).</p>
                  ) : (
                    <FileDiffView
                      diff={diff.value}
                      mode={mode}
                      pending={review.pending}
                      disabled={false}
                      onVerdict={(verdict, hunk) => void review.verdict(verdict, hunk)}
                    />
                  )}
                </>
              )}
            </section>
          </div>
        )}
      </div>
    </div>
  );
}
