import { create } from 'zustand';
import type { LedgerEntry } from '../../../src-preload/contract';

export interface LedgerState {
  /** Newest first, unique by seq. */
  entries: LedgerEntry[];
  /** '' means every session. Changing it reloads from the host (the host filters by session). */
  sessionFilter: string;
  /** Case-insensitive substring of the entry type, applied here. */
  typeFilter: string;
  hasOlder: boolean;
  loading: boolean;
  error: string | null;
  setSessionFilter(sessionId: string): void;
  setTypeFilter(text: string): void;
}

export const useLedger = create<LedgerState>((set) => ({
  entries: [],
  sessionFilter: '',
  typeFilter: '',
  hasOlder: false,
  loading: false,
  error: null,
  setSessionFilter(sessionFilter) {
    set({ sessionFilter });
  },
  setTypeFilter(typeFilter) {
    set({ typeFilter });
  },
}));

/** Merges entries into a newest-first list without duplicates (the tail and a page may overlap). */
export function mergeEntries(current: readonly LedgerEntry[], incoming: readonly LedgerEntry[]): LedgerEntry[] {
  const bySeq = new Map<number, LedgerEntry>();
  for (const entry of current) bySeq.set(entry.seq, entry);
  for (const entry of incoming) bySeq.set(entry.seq, entry);
  return [...bySeq.values()].sort((a, b) => b.seq - a.seq);
}
