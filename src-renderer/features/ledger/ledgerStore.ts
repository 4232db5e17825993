import { create } from 'zustand';
import type { LedgerEntry, LedgerFacets, LedgerFilter } from '../../../src-preload/contract';
import { EMPTY_FORM, formToFilter, type LedgerForm } from './ledgerFilterForm';

export interface LedgerTotal {
  value: number;
  /** False while the host is still counting (the value is its extrapolation so far). */
  exact: boolean;
}

export interface LedgerState {
  form: LedgerForm;
  /** What the list shows: the form, checked. Changes when the form is valid (text fields after a pause). */
  filter: LedgerFilter;
  /** Why the form's current values are not applied, if they are not. */
  formError: string | null;
  /** The form was edited and not applied yet (a pause in typing pending): what the list shows is for the old form. */
  formPending: boolean;
  facets: LedgerFacets | null;
  /** Matching entries in the list's snapshot; null until the first page has answered. */
  total: LedgerTotal | null;
  /** Matching entries appended after the snapshot and not shown yet (the list is scrolled away from the top). */
  newCount: number;
  /** Bumped whenever rows land in the page cache, so the list re-renders. */
  rowsVersion: number;
  /** The selected row's index (0 = newest), or -1. */
  selected: number;
  /** The entry shown in the detail panel. */
  detail: LedgerEntry | null;
  error: string | null;
  setForm(patch: Partial<LedgerForm>): void;
  /** Applies the form now (the view calls it after a pause in typing, or at once for menus). */
  applyForm(): void;
  clearForm(): void;
}

export const useLedger = create<LedgerState>((set, get) => ({
  form: EMPTY_FORM,
  filter: {},
  formError: null,
  formPending: false,
  facets: null,
  total: null,
  newCount: 0,
  rowsVersion: 0,
  selected: -1,
  detail: null,
  error: null,
  setForm(patch) {
    set({ form: { ...get().form, ...patch }, formPending: true });
  },
  applyForm() {
    const result = formToFilter(get().form);
    if ('error' in result) {
      set({ formError: result.error, formPending: false });
      return;
    }
    const same = JSON.stringify(result.filter) === JSON.stringify(get().filter);
    // A new filter forgets the old total in the same update, so no frame shows the old number as the new one's.
    set(same ? { formError: null, formPending: false } : { formError: null, formPending: false, filter: result.filter, total: null });
  },
  clearForm() {
    const changed = Object.keys(get().filter).length > 0;
    set({ form: EMPTY_FORM, formError: null, formPending: false, filter: changed ? {} : get().filter, ...(changed ? { total: null } : {}) });
  },
}));
