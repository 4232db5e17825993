import { diffLineKind, type DiffSummary } from './diffLines';
import { LinesView } from '../lines/LinesView';

interface Props {
  /** Lines of a unified diff, read by index so a growing or huge diff is never copied to be shown. */
  count: number;
  line(index: number): string;
  summary: DiffSummary;
}

/** A unified diff: the files it touches with added/removed counts, then its lines coloured, virtualised. */
export function DiffView({ count, line, summary }: Props) {
  return (
    <>
      <p className="diff-summary" data-testid="diff-summary">
        {summary.files.map((file) => (
          <code key={file} className="diff-file" data-testid="diff-file">
            {file}
          </code>
        ))}
        <span className="diff-added">+{summary.added}</span> <span className="diff-removed">−{summary.removed}</span>
      </p>
      <LinesView
        count={count}
        renderLine={line}
        lineClass={(i) => `diff-${diffLineKind(line(i))}`}
        label={`diff of ${summary.files.join(', ') || 'files'}: ${summary.added} added, ${summary.removed} removed lines`}
        testId="diff-lines"
      />
    </>
  );
}
