import { useRef } from 'react';
import type { SessionRunning } from '../../../src-preload/contract';
import { runningSentence, runningTotal } from './runningWords';
import { useModalDialog } from './useModalDialog';

/**
 * Asked before a session with live work is closed: closing stops its terminals, runs and agents, and no undo could
 * bring those processes back, so the user decides first. A modal <dialog>: focus starts on Cancel (the safe answer),
 * Escape cancels, Tab stays inside.
 */
export function CloseSessionDialog({
  sessionName,
  running,
  busy,
  onConfirm,
  onCancel,
}: {
  sessionName: string;
  running: SessionRunning;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const them = runningTotal(running) === 1 ? 'it' : 'them';
  useModalDialog(dialog, () => cancel.current?.focus());
  return (
    <dialog
      ref={dialog}
      className="close-session-dialog"
      aria-labelledby="close-session-title"
      aria-describedby="close-session-what"
      data-testid="close-session-dialog"
      // Escape: the browser's cancel, which would close the dialog behind React's back; the parent decides instead.
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <article>
        <h2 id="close-session-title">Close “{sessionName}”?</h2>
        <p id="close-session-what" data-testid="close-session-what">
          {runningSentence(running)} in this session. Closing the session stops {them}: the session can be reopened later, {runningTotal(running) === 1 ? 'this process' : 'these processes'} cannot.
        </p>
        <footer>
          <button ref={cancel} type="button" className="secondary" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" data-testid="close-session-confirm" disabled={busy} aria-busy={busy || undefined} onClick={onConfirm}>
            {busy ? 'Stopping…' : `Close and stop ${them}`}
          </button>
        </footer>
      </article>
    </dialog>
  );
}
