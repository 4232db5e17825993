import './ledger.css';
import { useMemo, useState } from 'react';
import { useSessions } from '../sessions/sessionsStore';
import { LedgerRow } from './LedgerRow';
import { useLedger } from './ledgerStore';
import { useLedgerFeed } from './useLedgerFeed';
import { VerifyLedger } from './VerifyLedger';

/** The audit ledger, newest first, live, filterable by session and type, paged backwards on demand. */
export function LedgerView() {
  const { loadOlder } = useLedgerFeed();
  const entries = useLedger((s) => s.entries);
  const sessionFilter = useLedger((s) => s.sessionFilter);
  const typeFilter = useLedger((s) => s.typeFilter);
  const hasOlder = useLedger((s) => s.hasOlder);
  const loading = useLedger((s) => s.loading);
  const error = useLedger((s) => s.error);
  const sessions = useSessions((s) => s.sessions);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());

  const sessionNames = useMemo(() => new Map(sessions.map((s) => [s.id, s.name])), [sessions]);
  const visible = useMemo(() => {
    const needle = typeFilter.trim().toLowerCase();
    return needle ? entries.filter((e) => e.type.toLowerCase().includes(needle)) : entries;
  }, [entries, typeFilter]);

  const toggle = (seq: number): void =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(seq)) next.add(seq);
      return next;
    });

  return (
    <section className="ledger-view" aria-label="Ledger" data-testid="ledger-view">
      <header className="ledger-toolbar">
        <h2>Ledger</h2>
        <label>
          Session
          <select value={sessionFilter} onChange={(e) => useLedger.getState().setSessionFilter(e.target.value)} data-testid="ledger-session-filter">
            <option value="">All sessions</option>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <input
            type="search"
            placeholder="e.g. terminal"
            value={typeFilter}
            data-testid="ledger-type-filter"
            onChange={(e) => useLedger.getState().setTypeFilter(e.target.value)}
          />
        </label>
      </header>
      {error && (
        <p className="item-error" role="alert">
          {error}
        </p>
      )}
      <div className="ledger-table-wrap">
        <table className="ledger-table striped">
          <thead>
            <tr>
              <th scope="col">Seq</th>
              <th scope="col">Time</th>
              <th scope="col">Type</th>
              <th scope="col">Actor</th>
              <th scope="col">Session</th>
              <th scope="col">Payload</th>
            </tr>
          </thead>
          <tbody>
            {visible.map((entry) => (
              <LedgerRow
                key={entry.seq}
                entry={entry}
                sessionLabel={entry.sessionId ? (sessionNames.get(entry.sessionId) ?? entry.sessionId) : '—'}
                expanded={expanded.has(entry.seq)}
                onToggle={() => toggle(entry.seq)}
              />
            ))}
          </tbody>
        </table>
        {!loading && visible.length === 0 && <p className="muted empty">No ledger entries match.</p>}
      </div>
      <footer className="ledger-footer">
        <button type="button" className="secondary" disabled={!hasOlder || loading} aria-busy={loading || undefined} onClick={() => void loadOlder()}>
          Load older
        </button>
        <span className="muted">{entries.length} loaded</span>
        <VerifyLedger />
      </footer>
    </section>
  );
}
