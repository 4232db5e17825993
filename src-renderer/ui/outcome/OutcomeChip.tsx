import './outcomeChip.css';

/** What became of a run, as its chip says it; `kind` picks the chip's colour and icon (outcomeChip.css). */
export type OutcomeKind =
  | 'live'
  | 'completed'
  | 'partly-denied'
  | 'denied'
  | 'failed'
  | 'timed-out'
  | 'cancelled'
  | 'limit'
  | 'interrupted'
  | 'unavailable';

export interface OutcomeView {
  kind: OutcomeKind;
  /** The chip's word: never the colour alone. */
  word: string;
  /** A shape beside the word (hidden from screen readers: the word says it). */
  icon: string;
}

/** A run's outcome: a coloured chip with an icon and a word (the colour is never the only signal). */
export function OutcomeChip({ outcome, title, testId }: { outcome: OutcomeView; title?: string; testId?: string }) {
  return (
    <span className={`badge outcome-chip outcome-${outcome.kind}`} data-testid={testId} data-outcome-kind={outcome.kind} title={title}>
      <span className="outcome-icon" aria-hidden="true">
        {outcome.icon}
      </span>
      {outcome.word}
    </span>
  );
}
