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
  /** The chip's word: never the colour alone (the kind also draws an icon beside it, outcomeChip.css). */
  word: string;
}

/** A run's outcome: a coloured chip with an icon (drawn by its CSS) and a word: the colour is never the only signal. */
export function OutcomeChip({ outcome, title, testId }: { outcome: OutcomeView; title?: string; testId?: string }) {
  return (
    <span className={`badge outcome-chip outcome-${outcome.kind}`} data-testid={testId} data-outcome-kind={outcome.kind} title={title}>
      {outcome.word}
    </span>
  );
}
