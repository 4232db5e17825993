import { create } from 'zustand';

/**
 * Asks the ledger's Export form to open from outside its button (the command palette). A counter, not a flag: every
 * request opens the form, even one made while an earlier request is still being shown.
 */
export const useExportOpener = create<{ requests: number; request(): void }>((set) => ({
  requests: 0,
  request: () => set((s) => ({ requests: s.requests + 1 })),
}));
