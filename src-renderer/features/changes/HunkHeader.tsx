import type { Hunk } from '../../../src-preload/contract';

interface Props {
  hunk: Hunk;
  current: boolean;
  /** A verdict is being given on this hunk (or the whole file): its buttons wait for the answer. */
  busy: boolean;
  disabled: boolean;
  onVerdict(verdict: 'accepted' | 'rejected'): void;
}

/** A hunk's header row: where it is in both files, git's heading, its verdict, and Accept / Reject. */
export function HunkHeader({ hunk, current, busy, disabled, onVerdict }: Props) {
  const where = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
  return (
    <>
      <code className="review-hunk-where">
        {where}
        {hunk.heading ? ` ${hunk.heading}` : ''}
      </code>
      <span className={`badge review-verdict review-verdict-${hunk.verdict}`} data-testid="review-hunk-verdict">
        {hunk.verdict}
      </span>
      <button
        type="button"
        className="icon-button"
        data-testid="review-hunk-accept"
        disabled={disabled || busy || hunk.verdict === 'accepted'}
        aria-label={`Accept hunk ${hunk.index + 1} (${where})`}
        title={current ? 'Accept this hunk (a)' : 'Accept this hunk'}
        onClick={() => onVerdict('accepted')}
      >
        Accept
      </button>
      <button
        type="button"
        className="icon-button"
        data-testid="review-hunk-reject"
        disabled={disabled || busy || hunk.verdict === 'rejected'}
        aria-label={`Reject hunk ${hunk.index + 1} (${where}): put it back on disk as it was before the turn`}
        title={current ? 'Reject this hunk: restore it on disk as before the turn (r)' : 'Reject this hunk: restore it on disk as before the turn'}
        onClick={() => onVerdict('rejected')}
      >
        {busy ? '…' : 'Reject'}
      </button>
    </>
  );
}
