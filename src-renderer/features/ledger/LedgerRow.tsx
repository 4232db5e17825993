import { memo } from 'react';
import type { LedgerEntry } from '../../../src-preload/contract';
import { ledgerSentence, type WorkspaceOf } from './ledgerSentence';
import { fullTime, timeAgo } from './ledgerTime';
import { payloadSummary } from './payloadSummary';

export const LEDGER_ROW_HEIGHT = 28;

export const ledgerRowId = (index: number): string => `ledger-row-${index}`;

interface Props {
  index: number;
  top: number;
  /** Undefined while its page loads. */
  entry: LedgerEntry | undefined;
  sessionLabel: string;
  selected: boolean;
  /** The clock "2 min ago" counts from (ticks while the view shows). */
  now: number;
  workspaceOf: WorkspaceOf;
  onSelect(index: number, open: boolean): void;
}

/**
 * One row of the ledger grid. A click selects it and opens its details; so does its seq button (Enter or Space),
 * which is out of the Tab order: the grid itself takes focus and moves the selection with the arrow keys.
 */
export const LedgerRow = memo(function LedgerRow({ index, top, entry, sessionLabel, selected, now, workspaceOf, onSelect }: Props) {
  const style = { top, height: LEDGER_ROW_HEIGHT };
  if (!entry) {
    return (
      <div role="row" aria-rowindex={index + 2} aria-busy="true" className="ledger-row pending" style={style} data-testid="ledger-row-pending">
        <span role="gridcell" className="muted">
          …
        </span>
      </div>
    );
  }
  const sentence = ledgerSentence(entry, workspaceOf);
  return (
    <div
      role="row"
      id={ledgerRowId(index)}
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`ledger-row${selected ? ' selected' : ''}`}
      style={style}
      data-testid="ledger-row"
      data-seq={entry.seq}
      data-type={entry.type}
      onClick={() => onSelect(index, true)}
    >
      <span role="gridcell" className="ledger-seq">
        <button
          type="button"
          tabIndex={-1}
          aria-label={`Entry ${entry.seq}, ${entry.type}: show details`}
          onClick={(event) => {
            event.stopPropagation();
            onSelect(index, true);
          }}
        >
          {entry.seq}
        </button>
      </span>
      <span role="gridcell">
        <time dateTime={new Date(entry.ts).toISOString()} title={fullTime(entry.ts)} data-testid="ledger-time">
          {timeAgo(entry.ts, now)}
        </time>
      </span>
      <span role="gridcell" className="ledger-sentence" title={`${sentence}\n${payloadSummary(entry.payload)}`} data-testid="ledger-sentence">
        {sentence}
      </span>
      <span role="gridcell" className="ledger-type">
        {entry.type}
      </span>
      <span role="gridcell" className="ledger-actor">
        {entry.actor}
      </span>
      <span role="gridcell" className="ledger-session" title={entry.sessionId ?? undefined}>
        {sessionLabel}
      </span>

    </div>
  );
});
