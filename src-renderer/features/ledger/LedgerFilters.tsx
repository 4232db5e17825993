import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSessions } from '../../ui/sessionsStore';
import { isEmptyForm, NO_SESSION, typeSuggestions, type LedgerForm } from './ledgerFilterForm';
import { useLedger } from './ledgerStore';

/** Typing pauses this long before the list is asked again. */
const TYPING_PAUSE_MS = 250;

export const LEDGER_SEARCH_ID = 'ledger-search';

/** Sets form fields and applies them: menus at once, typed text after a pause. */
function useFormChange(): (patch: Partial<LedgerForm>, when: 'now' | 'after-typing') => void {
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(typing.current), []);
  return useCallback((patch, when) => {
    const store = useLedger.getState();
    store.setForm(patch);
    clearTimeout(typing.current);
    if (when === 'now') store.applyForm();
    else typing.current = setTimeout(() => useLedger.getState().applyForm(), TYPING_PAUSE_MS);
  }, []);
}

/** Full-text search over type, actor and payload; `/` anywhere in the ledger view focuses it. */
export function LedgerSearch() {
  const search = useLedger((s) => s.form.search);
  const change = useFormChange();
  return (
    <input
      id={LEDGER_SEARCH_ID}
      type="search"
      className="ledger-search"
      placeholder="Search type, actor, payload  ( / )"
      aria-label="Search the ledger"
      aria-keyshortcuts="/"
      value={search}
      data-testid="ledger-search"
      onChange={(e) => change({ search: e.target.value }, 'after-typing')}
      onKeyDown={(e) => {
        if (e.key === 'Enter') change({}, 'now');
      }}
    />
  );
}

/** The filters: session, agent (actor), type, and a time range. */
export function LedgerFilters() {
  const form = useLedger((s) => s.form);
  const formError = useLedger((s) => s.formError);
  const facets = useLedger((s) => s.facets);
  const sessions = useSessions((s) => s.sessions);
  const change = useFormChange();

  // Named sessions first (as the sidebar lists them), then ids that only the ledger still knows.
  const sessionOptions = useMemo(() => {
    const named = sessions.map((s) => ({ id: s.id, label: s.name }));
    const known = new Set(named.map((s) => s.id));
    const others = (facets?.sessions ?? []).filter((id) => !known.has(id)).map((id) => ({ id, label: id }));
    return [...named, ...others];
  }, [sessions, facets]);
  const types = useMemo(() => typeSuggestions(facets?.types ?? []), [facets]);

  return (
    <div className="ledger-filters">
      <label>
        Session
        <select value={form.sessionId} onChange={(e) => change({ sessionId: e.target.value }, 'now')} data-testid="ledger-session-filter">
          <option value="">All sessions</option>
          {facets?.noSession && <option value={NO_SESSION}>No session (host)</option>}
          {sessionOptions.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Agent
        <select value={form.actor} onChange={(e) => change({ actor: e.target.value }, 'now')} data-testid="ledger-actor-filter">
          <option value="">All actors</option>
          {(facets?.actors ?? []).map((actor) => (
            <option key={actor} value={actor}>
              {actor}
            </option>
          ))}
        </select>
      </label>
      <label>
        Type
        <input
          type="text"
          list="ledger-type-suggestions"
          placeholder="e.g. terminal, grant.*"
          title="Comma-separated; a plain word matches types containing it, * matches anything"
          value={form.types}
          data-testid="ledger-type-filter"
          onChange={(e) => change({ types: e.target.value }, 'after-typing')}
        />
        <datalist id="ledger-type-suggestions">
          {types.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
      </label>
      <label>
        From
        <input type="datetime-local" value={form.from} data-testid="ledger-from" onChange={(e) => change({ from: e.target.value }, 'now')} />
      </label>
      <label>
        To
        <input type="datetime-local" value={form.to} data-testid="ledger-to" onChange={(e) => change({ to: e.target.value }, 'now')} />
      </label>
      <button
        type="button"
        className="secondary outline"
        disabled={isEmptyForm(form)}
        onClick={() => useLedger.getState().clearForm()}
        data-testid="ledger-clear-filters"
      >
        Clear
      </button>
      {formError && (
        <p className="item-error" role="alert" data-testid="ledger-filter-error">
          {formError}
        </p>
      )}
    </div>
  );
}
