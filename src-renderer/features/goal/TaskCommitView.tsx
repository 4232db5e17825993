import { useEffect, useMemo, useState } from 'react';
import type { TaskCommitView as Shown } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { DiffView } from '../../ui/diff/DiffView';
import { summarizeDiff } from '../../ui/diff/diffLines';
import { errorMessage } from '../../ui/errorMessage';

/** One task commit opened from the board: `git show --stat` (who, when, message, files), then its diff. */
export function TaskCommitView({ sessionId, commit, onClose }: { sessionId: string; commit: string; onClose: () => void }) {
  const client = useConnection((s) => s.client);
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!client) return;
    let live = true;
    client.call('goal.commit', { sessionId, commit }).then(
      (value) => live && setShown(value),
      (e: unknown) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [client, sessionId, commit]);

  const lines = useMemo(() => (shown ? shown.patch.replace(/\n$/, '').split('\n') : []), [shown]);
  const summary = useMemo(() => summarizeDiff(lines), [lines]);

  return (
    <div
      className="goal-commit"
      role="region"
      aria-label={`Commit ${commit.slice(0, 7)}`}
      data-testid="goal-commit-view"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="goal-commit-head">
        <strong>Commit {commit.slice(0, 7)}</strong>
        <button type="button" className="secondary icon-button" data-testid="goal-commit-close" onClick={onClose}>
          Close
        </button>
      </div>
      {error && (
        <small className="item-error" role="alert">
          {error}
        </small>
      )}
      {!shown && !error && <p aria-busy="true">Loading the commit…</p>}
      {shown && (
        <>
          <pre className="goal-commit-stat" data-testid="goal-commit-stat">
            {shown.stat.trim()}
          </pre>
          <DiffView count={lines.length} line={(i) => lines[i]} summary={summary} />
          {shown.truncated && <small className="muted">The diff is cut short here; see the rest with git show {shown.commit.slice(0, 10)}.</small>}
        </>
      )}
    </div>
  );
}
