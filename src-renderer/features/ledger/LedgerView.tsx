import './ledger.css';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useView } from '../../ui/viewStore';
import { VirtualRows, type VirtualRowsHandle } from '../../ui/VirtualRows';
import { useSessions } from '../../ui/sessionsStore';
import { useNow } from '../../ui/useNow';
import { LedgerDetail } from './LedgerDetail';
import { LEDGER_SEARCH_ID, LedgerFilters, LedgerSearch } from './LedgerFilters';
import { LEDGER_ROW_HEIGHT, LedgerRow, ledgerRowId } from './LedgerRow';
import { LedgerStatus } from './LedgerStatus';
import { useLedger } from './ledgerStore';
import { useLedgerFacets } from './useLedgerFacets';
import { useLedgerList } from './useLedgerList';
import { ExportLedger } from './ExportLedger';
import { VerifyBanner, VerifyLedger } from './VerifyLedger';

const isEditable = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The audit ledger: every entry, newest first, in a virtualized grid that scrolls through a million of them;
 * filters and search run on the host; new entries appear live at the top; a detail panel shows one entry whole.
 * Keys: arrows, Page Up/Down, Home/End move the selection; Enter opens its details, Escape closes them; / searches.
 */
export function LedgerView() {
  useLedgerFacets();
  const list = useLedgerList();
  const total = useLedger((s) => s.total);
  const filter = useLedger((s) => s.filter);
  const selected = useLedger((s) => s.selected);
  const detail = useLedger((s) => s.detail);
  const error = useLedger((s) => s.error);
  const rowsVersion = useLedger((s) => s.rowsVersion);
  const sessions = useSessions((s) => s.sessions);
  const shown = useView((s) => s.view === 'ledger');
  const rows = useRef<VirtualRowsHandle>(null);
  const range = useRef({ first: 0, last: -1 });
  const [atTop, setAtTop] = useState(true);

  const sessionNames = useMemo(() => new Map(sessions.map((s) => [s.id, s.name])), [sessions]);
  const sessionLabel = useCallback((id: string | null) => (id ? (sessionNames.get(id) ?? id) : '—'), [sessionNames]);
  const workspaces = useMemo(() => new Map(sessions.map((s) => [s.id, s.workspace])), [sessions]);
  const workspaceOf = useCallback((id: string | null) => (id ? (workspaces.get(id) ?? null) : null), [workspaces]);
  // "2 min ago" stays true while the view shows; a hidden ledger does not tick.
  const now = useNow(shown, 15_000);
  const count = total?.value ?? 0;

  const onRangeChange = useCallback(
    (first: number, last: number) => {
      range.current = { first, last };
      list.want(first, last);
    },
    [list],
  );
  // Rows landed or the total changed: the pager may have more to fetch for the same viewport.
  useEffect(() => list.want(range.current.first, range.current.last), [list, rowsVersion, count]);
  useEffect(() => rows.current?.scrollToTop(), [filter]);
  const onAtTopChange = useCallback(
    (value: boolean) => {
      setAtTop(value);
      list.setAtTop(value);
    },
    [list],
  );

  // With the details open, they follow the selection.
  useEffect(() => {
    if (!useLedger.getState().detail || selected < 0) return;
    const entry = list.entryAt(selected);
    if (entry && entry.seq !== useLedger.getState().detail?.seq) useLedger.setState({ detail: entry });
  }, [list, selected, rowsVersion]);

  useEffect(() => {
    if (!shown) return;
    const onKeyDown = (event: globalThis.KeyboardEvent): void => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
      event.preventDefault();
      document.getElementById(LEDGER_SEARCH_ID)?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [shown]);

  const select = useCallback(
    (index: number, open: boolean) => {
      const entry = list.entryAt(index);
      useLedger.setState(open && entry ? { selected: index, detail: entry } : { selected: index });
    },
    [list],
  );

  const onGridKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
    const current = useLedger.getState().selected;
    const from = current >= 0 ? current : range.current.first;
    const page = Math.max(1, (rows.current?.rowsPerPage() ?? 10) - 1);
    let next: number;
    switch (event.key) {
      case 'ArrowDown':
        next = current >= 0 ? current + 1 : from;
        break;
      case 'ArrowUp':
        next = current >= 0 ? current - 1 : from;
        break;
      case 'PageDown':
        next = from + page;
        break;
      case 'PageUp':
        next = from - page;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = count - 1;
        break;
      case 'Enter':
        event.preventDefault();
        if (current >= 0) select(current, true);
        return;
      case 'Escape':
        if (useLedger.getState().detail) {
          event.preventDefault();
          useLedger.setState({ detail: null });
        }
        return;
      default:
        return;
    }
    event.preventDefault();
    if (count === 0) return;
    next = Math.max(0, Math.min(count - 1, next));
    select(next, false);
    rows.current?.scrollToIndex(next);
  };

  const closeDetail = useCallback(() => {
    useLedger.setState({ detail: null });
    rows.current?.element()?.focus();
  }, []);

  const renderRow = (index: number, top: number) => {
    const entry = list.entryAt(index);
    return (
      <LedgerRow
        key={index}
        index={index}
        top={top}
        entry={entry}
        sessionLabel={entry ? sessionLabel(entry.sessionId) : ''}
        selected={index === selected}
        now={now}
        workspaceOf={workspaceOf}
        onSelect={select}
      />
    );
  };

  return (
    <section className="ledger-view" aria-label="Ledger" data-testid="ledger-view">
      <header className="ledger-toolbar">
        <h2>Ledger</h2>
        <LedgerSearch />
        <div className="ledger-actions">
          <ExportLedger />
          <VerifyLedger />
        </div>
        <LedgerFilters />
      </header>
      <VerifyBanner />
      <LedgerStatus
        atTop={atTop}
        onShowNew={() => {
          list.showNew();
          rows.current?.scrollToTop();
        }}
      />
      {error && (
        <p className="item-error" role="alert">
          {error}
        </p>
      )}
      <div className="ledger-body">
        <VirtualRows
          ref={rows}
          className="ledger-grid"
          role="grid"
          aria-label="Ledger entries, newest first"
          aria-rowcount={count + 1}
          aria-activedescendant={selected >= 0 && list.entryAt(selected) ? ledgerRowId(selected) : undefined}
          tabIndex={0}
          data-testid="ledger-grid"
          count={count}
          rowHeight={LEDGER_ROW_HEIGHT}
          header={
            <div role="row" aria-rowindex={1} className="ledger-row ledger-header">
              {['Seq', 'Time', 'What happened', 'Type', 'Actor', 'Session'].map((name) => (
                <span key={name} role="columnheader">
                  {name}
                </span>
              ))}
            </div>
          }
          renderRow={renderRow}
          onRangeChange={onRangeChange}
          onAtTopChange={onAtTopChange}
          onKeyDown={onGridKeyDown}
        />
        {total?.exact && total.value === 0 && <p className="muted empty ledger-empty">No ledger entries match.</p>}
        {detail && <LedgerDetail entry={detail} sessionLabel={detail.sessionId ? sessionLabel(detail.sessionId) : null} workspaceOf={workspaceOf} onClose={closeDetail} />}
      </div>
    </section>
  );
}
