import { useEffect, useRef } from 'react';
import { DIRTY_TREE_COMMIT_MESSAGE, DIRTY_TREE_FIELD, DIRTY_TREE_REFERENCE, RpcError, type DirtyTreeAnswer } from '../../../src-preload/contract';

/** The files of the host's "dirty tree" refusal (contract goal.ts), or null when `error` is another one. */
export function dirtyTreeFiles(error: unknown): string[] | null {
  if (!(error instanceof RpcError) || !error.message.endsWith(`[${DIRTY_TREE_REFERENCE}]`)) return null;
  return (error.issues ?? []).filter((issue) => issue.path === DIRTY_TREE_FIELD).map((issue) => issue.message);
}

/**
 * The goal run's question before it commits anything: the workspace has the user's uncommitted changes. Commit them
 * (the message is shown), stash them, or run in a new worktree; Cancel or Escape leaves everything as it is.
 */
export function DirtyTreeQuestion({
  files,
  allowWorktree,
  busy,
  onAnswer,
  onCancel,
}: {
  files: readonly string[];
  allowWorktree: boolean;
  busy: boolean;
  onAnswer: (answer: DirtyTreeAnswer) => void;
  onCancel: () => void;
}) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div
      className="goal-dirty-tree"
      role="alertdialog"
      aria-labelledby="goal-dirty-tree-title"
      data-testid="goal-dirty-tree"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <p id="goal-dirty-tree-title">
        <strong>The workspace has uncommitted changes.</strong> A goal run commits each task, so it asks first what to do with yours
        (nothing has been changed yet):
      </p>
      <ul className="goal-dirty-tree-files" data-testid="goal-dirty-tree-files">
        {files.map((file) => (
          <li key={file}>
            <code>{file}</code>
          </li>
        ))}
      </ul>
      <div className="goal-buttons">
        <button ref={first} type="button" data-testid="goal-dirty-commit" disabled={busy} onClick={() => onAnswer('commit')}>
          Commit them as “{DIRTY_TREE_COMMIT_MESSAGE}”
        </button>
        <button type="button" className="secondary" data-testid="goal-dirty-stash" disabled={busy} onClick={() => onAnswer('stash')}>
          Stash them (git stash pop brings them back)
        </button>
        {allowWorktree && (
          <button type="button" className="secondary" data-testid="goal-dirty-worktree" disabled={busy} onClick={() => onAnswer('worktree')}>
            Run in a new worktree session
          </button>
        )}
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
