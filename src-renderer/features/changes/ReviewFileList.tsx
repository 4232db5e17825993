import type { ChangedFile, SkippedFile } from '../../../src-preload/contract';
import { skippedText, statusCounts, statusLetter } from './fileSummary';

interface Props {
  files: readonly ChangedFile[];
  skipped: readonly SkippedFile[];
  selected: string | null;
  onSelect(path: string): void;
}

/** The turn's files: how many of each kind, each with its status, +/− counts and verdict; then what was left out. */
export function ReviewFileList({ files, skipped, selected, onSelect }: Props) {
  return (
    <div className="review-files" role="region" aria-label="Changed files">
      <p className="review-counts" data-testid="review-counts">
        {statusCounts(files)}
      </p>
      <ul>
        {files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              className="review-file"
              data-testid="review-file"
              data-path={file.path}
              data-status={file.status}
              data-verdict={file.verdict}
              aria-current={file.path === selected ? 'true' : undefined}
              title={file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}
              onClick={() => onSelect(file.path)}
            >
              <span className={`review-status review-status-${file.status}`} title={file.status} aria-label={file.status}>
                {statusLetter[file.status]}
              </span>
              <span className="review-path">{file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}</span>
              {file.binary ? (
                <span className="badge">binary</span>
              ) : (
                <span className="review-numbers">
                  <span className="diff-added">+{file.additions}</span> <span className="diff-removed">−{file.deletions}</span>
                </span>
              )}
              {file.verdict !== 'pending' && <span className={`badge review-verdict review-verdict-${file.verdict}`}>{file.verdict}</span>}
            </button>
          </li>
        ))}
      </ul>
      {skipped.length > 0 && (
        <div className="review-skipped" data-testid="review-skipped">
          <p className="muted">Not in the snapshots, so not reviewable here:</p>
          <ul>
            {skipped.map((file) => (
              <li key={file.path}>
                <code>{file.path}</code> <span className="muted">{skippedText(file)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
