import { useLedger } from './ledgerStore';

interface Props {
  /** Scrolled to the top, where new entries appear as they come. */
  atTop: boolean;
  onShowNew(): void;
}

/** How many entries match (or an estimate while the host counts), whether the list is live, and what is new. */
export function LedgerStatus({ atTop, onShowNew }: Props) {
  const total = useLedger((s) => s.total);
  const filtered = useLedger((s) => Object.keys(s.filter).length > 0);
  const newCount = useLedger((s) => s.newCount);
  const pending = useLedger((s) => s.formPending);
  const noun = filtered ? 'matching entries' : 'entries';

  return (
    <div className="ledger-status">
      {total === null ? (
        <span className="muted" aria-busy="true" data-testid="ledger-total">
          Loading…
        </span>
      ) : total.exact && !pending ? (
        <span data-testid="ledger-total" data-exact="true">
          {total.value.toLocaleString()} {total.value === 1 ? noun.replace('entries', 'entry') : noun}
        </span>
      ) : pending ? (
        <span className="muted" aria-busy="true" data-testid="ledger-total" data-exact="false">
          {total.value.toLocaleString()} {noun} (updating…)
        </span>
      ) : (
        <span data-testid="ledger-total" data-exact="false" title="Counting every match in a large ledger takes a moment; this is an estimate until it is done">
          ≈ {total.value.toLocaleString()} {noun} <span className="muted">(estimate, still counting…)</span>
        </span>
      )}
      {newCount > 0 ? (
        <button type="button" className="ledger-new" onClick={onShowNew} data-testid="ledger-new-entries">
          ↑ {newCount.toLocaleString()} new {newCount === 1 ? 'entry' : 'entries'}
        </button>
      ) : (
        atTop && total !== null && <span className="badge ledger-live" title="New entries appear at the top as they are recorded">live</span>
      )}
    </div>
  );
}
