import { useMemo } from 'react';
import { summarizeDiff } from '../../ui/diff/diffLines';
import { DiffView } from '../../ui/diff/DiffView';
import { cardLine, cardLineCount, type OutputCardModel } from './runModel';

/** An agent's unified-diff output card, shown with the shared diff view. */
export function DiffCard({ card }: { card: OutputCardModel }) {
  const count = cardLineCount(card);
  // The lines array is appended in place: the version is what says the diff changed.
  const summary = useMemo(() => summarizeDiff(card.tail ? [...card.lines, card.tail] : card.lines), [card.lines, card.tail, card.version]);
  return <DiffView count={count} line={(i) => cardLine(card, i)} summary={summary} />;
}
