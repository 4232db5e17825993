import './runOutcome.css';
import type { RunOutcomeView } from './runOutcome';

/** A run's outcome: a coloured chip with an icon and a word (the colour is never the only signal). */
export function OutcomeChip({ outcome, title, testId }: { outcome: RunOutcomeView; title?: string; testId?: string }) {
  return (
    <span className={`badge outcome-chip outcome-${outcome.kind}`} data-testid={testId} data-outcome-kind={outcome.kind} title={title}>
      <span className="outcome-icon" aria-hidden="true">
        {outcome.icon}
      </span>
      {outcome.word}
    </span>
  );
}
