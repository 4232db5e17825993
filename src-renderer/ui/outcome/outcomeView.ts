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
