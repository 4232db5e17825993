import { LinesView } from '../../ui/lines/LinesView';
import { cardLine, cardLineCount, type OutputCardModel } from './runModel';

/** A log: monospace, following new lines while the user is at the bottom. */
export function LogCard({ card }: { card: OutputCardModel }) {
  const count = cardLineCount(card);
  return <LinesView count={count} renderLine={(i) => cardLine(card, i)} follow label={`log, ${count} lines`} testId="log-lines" />;
}
