import type { LedgerEntry } from '../../../src-preload/contract';
import { payloadSummary } from './payloadSummary';

interface Props {
  entry: LedgerEntry;
  sessionLabel: string;
  expanded: boolean;
  onToggle(): void;
}

/** One ledger entry; the row (or its disclosure button, for keyboard users) expands the payload JSON. */
export function LedgerRow({ entry, sessionLabel, expanded, onToggle }: Props) {
  const detailsId = `ledger-entry-${entry.seq}`;
  const time = new Date(entry.ts);
  return (
    <>
      <tr className={`ledger-row${expanded ? ' expanded' : ''}`} data-testid="ledger-row" data-type={entry.type} onClick={onToggle}>
        <td>
          <button
            type="button"
            className="disclosure"
            aria-expanded={expanded}
            aria-controls={detailsId}
            aria-label={`Entry ${entry.seq}, ${entry.type}: ${expanded ? 'hide' : 'show'} payload`}
            onClick={(event) => {
              event.stopPropagation();
              onToggle();
            }}
          >
            <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {entry.seq}
          </button>
        </td>
        <td>
          <time dateTime={time.toISOString()} title={time.toLocaleString()}>
            {time.toLocaleTimeString()}
          </time>
        </td>
        <td className="ledger-type">{entry.type}</td>
        <td>{entry.actor}</td>
        <td title={entry.sessionId ?? undefined}>{sessionLabel}</td>
        <td className="ledger-summary">{payloadSummary(entry.payload)}</td>
      </tr>
      {expanded && (
        <tr className="ledger-details" id={detailsId}>
          <td colSpan={6}>
            <pre>{JSON.stringify(entry.payload, null, 2)}</pre>
          </td>
        </tr>
      )}
    </>
  );
}
