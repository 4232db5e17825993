import { useCallback, useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { ChangedFile, SkippedFile } from '../../../src-preload/contract';
import { VirtualRows, type VirtualRowsHandle } from '../../ui/VirtualRows';
import { skippedText, statusCounts, statusLetter } from './fileSummary';

const FILE_ROW_HEIGHT = 26;
/** Skipped files past this many are counted, not listed: an agent can leave a hundred thousand unreadable files. */
const SKIPPED_SHOWN = 200;

interface Props {
  files: readonly ChangedFile[];
  skipped: readonly SkippedFile[];
  selected: string | null;
  onSelect(path: string): void;
}

/**
 * The turn's files: how many of each kind, each with its status, +/− counts and verdict; then what was left out.
 * Virtualised, because an agent can touch tens of thousands of files in one turn; ↑ / ↓ move between them.
 */
export function ReviewFileList({ files, skipped, selected, onSelect }: Props) {
  const list = useRef<VirtualRowsHandle>(null);
  const onRangeChange = useCallback(() => undefined, []);
  const selectedIndex = files.findIndex((f) => f.path === selected);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const next = Math.min(files.length - 1, Math.max(0, selectedIndex + (event.key === 'ArrowDown' ? 1 : -1)));
    if (next < 0) return;
    onSelect(files[next].path);
    list.current?.scrollToIndex(next);
  }

  const renderRow = (index: number, top: number, slot: number): ReactNode => {
    const file = files[index];
    const name = file.oldPath ? `${file.oldPath} → ${file.path}` : file.path;
    return (
      <button
        key={slot}
        type="button"
        className="review-file"
        style={{ position: 'absolute', top, height: FILE_ROW_HEIGHT }}
        data-testid="review-file"
        data-path={file.path}
        data-status={file.status}
        data-verdict={file.verdict}
        aria-current={index === selectedIndex ? 'true' : undefined}
        title={name}
        onClick={() => onSelect(file.path)}
      >
        <span className={`review-status review-status-${file.status}`} title={file.status} aria-label={file.status}>
          {statusLetter[file.status]}
        </span>
        <span className="review-path">{name}</span>
        {file.binary ? (
          <span className="badge">binary</span>
        ) : (
          <span className="review-numbers">
            <span className="diff-added">+{file.additions}</span> <span className="diff-removed">−{file.deletions}</span>
          </span>
        )}
        {file.verdict !== 'pending' && <span className={`badge review-verdict review-verdict-${file.verdict}`}>{file.verdict}</span>}
      </button>
    );
  };

  return (
    <div className="review-files" role="region" aria-label="Changed files">
      <p className="review-counts" data-testid="review-counts">
        {statusCounts(files)}
      </p>
      <VirtualRows
        ref={list}
        className="review-file-rows"
        aria-label={`${files.length} changed file(s); up and down arrows move between them`}
        count={files.length}
        rowHeight={FILE_ROW_HEIGHT}
        renderRow={renderRow}
        onRangeChange={onRangeChange}
        onKeyDown={onKeyDown}
      />
      {skipped.length > 0 && (
        <div className="review-skipped" data-testid="review-skipped">
          <p className="muted">Not in the snapshots, so not reviewable here:</p>
          <ul>
            {skipped.slice(0, SKIPPED_SHOWN).map((file) => (
              <li key={file.path}>
                <code>{file.path}</code> <span className="muted">{skippedText(file)}</span>
              </li>
            ))}
          </ul>
          {skipped.length > SKIPPED_SHOWN && <p className="muted">and {(skipped.length - SKIPPED_SHOWN).toLocaleString()} more</p>}
        </div>
      )}
    </div>
  );
}
