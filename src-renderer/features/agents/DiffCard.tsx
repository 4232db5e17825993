import { useMemo } from 'react';
import { diffLineKind, summarizeDiff } from './diffLines';
import { LinesView } from './LinesView';
import { cardLine, cardLineCount, type OutputCardModel } from './runModel';

/** A unified diff: file headers, hunks, added and removed lines coloured. */
export function DiffCard({ card }: { card: OutputCardModel }) {
  const count = cardLineCount(card);
  // The lines array is appended in place: the version is what says the diff changed.
  const summary = useMemo(() => summarizeDiff(card.tail ? [...card.lines, card.tail] : card.lines), [card.lines, card.tail, card.version]);
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
        renderLine={(i) => cardLine(card, i)}
        lineClass={(i) => `diff-${diffLineKind(cardLine(card, i))}`}
        label={`diff of ${summary.files.join(', ') || 'files'}: ${summary.added} added, ${summary.removed} removed lines`}
        testId="diff-lines"
      />
    </>
  );
}
