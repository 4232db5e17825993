import './outcomeChip.css';
import type { OutcomeView } from './outcomeView';

/** A run's outcome: a coloured chip with an icon (drawn by its CSS) and a word: the colour is never the only signal. */
export function OutcomeChip({ outcome, title, testId }: { outcome: OutcomeView; title?: string; testId?: string }) {
  return (
    <span className={`badge outcome-chip outcome-${outcome.kind}`} data-testid={testId} data-outcome-kind={outcome.kind} title={title}>
      {outcome.word}
    </span>
  );
}
