import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { GoalCheckpoint } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { focusableIn, trapFocus } from './focusTrap';
import { useGoal } from './goalStore';

/** While the dialog is up, the app behind it is inert: no focus, no clicks, hidden from assistive technology. */
function makeAppInert(): () => void {
  const app = document.getElementById('root');
  if (!app) return () => undefined;
  const before = app.inert;
  app.inert = true;
  return () => {
    app.inert = before;
  };
}

/**
 * An agent's checkpoint question, modal: rendered over the window (outside the app root, which is made inert), and
 * focus stays in the dialog until it is answered. A decision shows its options
 * as buttons; a human action takes free text (or just Continue). Escape sets the dialog aside without losing the
 * question: it stays pending on the host, and the banner in the goal panel brings it back. `waiting` counts the
 * questions behind this one.
 */
export function CheckpointDialog({ checkpoint, waiting }: { checkpoint: GoalCheckpoint; waiting: number }) {
  const client = useConnection((s) => s.client);
  const [text, setText] = useState('');
  const [sending, setSending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const decision = checkpoint.reason === 'decision_required';
  const titleId = `checkpoint-title-${checkpoint.resumeId}`;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const restoreApp = makeAppInert();
    (focusableIn(element)[0] ?? element).focus();
    const release = trapFocus(element);
    return () => {
      release();
      restoreApp();
      if (returnTo?.isConnected) returnTo.focus();
    };
  }, [checkpoint.resumeId]);

  async function answer(value: string): Promise<void> {
    if (!client || sending) return;
    setSending(value);
    setError(null);
    try {
      const result = await client.call('goal.answer', { sessionId: checkpoint.sessionId, resumeId: checkpoint.resumeId, answer: value });
      // Accepted or not (another window answered first), the question is settled: it leaves the dialog.
      useGoal.getState().checkpointAnswered(result.checkpoint);
    } catch (e) {
      setError(errorMessage(e));
      setSending(null);
    }
  }

  return createPortal(
    <div className="goal-modal-backdrop" data-testid="checkpoint-backdrop">
      <div
        ref={dialog}
        className="goal-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid="checkpoint-dialog"
        data-resume-id={checkpoint.resumeId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            useGoal.getState().setDialogAside(checkpoint.sessionId, true);
          }
        }}
      >
        <p className="muted goal-modal-kicker">
          {checkpoint.agentName ? `${checkpoint.agentName} asks` : 'An agent asks'}
          {decision ? ' for a decision' : ' you to do something'}
          {waiting > 0 && ` · ${waiting} more waiting`}
        </p>
        <h3 id={titleId} data-testid="checkpoint-message">
          {checkpoint.message}
        </h3>
        {decision ? (
          <div className="goal-modal-options" role="group" aria-label="Options">
            {checkpoint.options.map((option) => (
              <button key={option} type="button" data-testid="checkpoint-option" disabled={sending !== null} onClick={() => void answer(option)}>
                {sending === option ? 'Sending…' : option}
              </button>
            ))}
          </div>
        ) : (
          <form
            className="goal-modal-action"
            onSubmit={(event) => {
              event.preventDefault();
              void answer(text.trim() || 'Continue');
            }}
          >
            {checkpoint.options.length > 0 && <p className="muted">Steps: {checkpoint.options.join(' · ')}</p>}
            <textarea
              data-testid="checkpoint-text"
              aria-label="Your reply (optional)"
              placeholder="What you did, or anything the agent should know (optional)"
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
            <button type="submit" data-testid="checkpoint-continue" disabled={sending !== null}>
              {sending ? 'Sending…' : text.trim() ? 'Send' : 'Continue'}
            </button>
          </form>
        )}
        {error && (
          <p className="item-error" role="alert" data-testid="checkpoint-error">
            {error}
          </p>
        )}
        <p className="muted goal-modal-hint">
          The run waits for your answer. <kbd>Esc</kbd> sets this aside; the question stays until you answer it.
        </p>
      </div>
    </div>,
    document.body,
  );
}
