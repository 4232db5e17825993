import { create } from 'zustand';

export type MainView = 'session' | 'ledger';

export const useView = create<{ view: MainView; setView(view: MainView): void }>((set) => ({
  view: 'session',
  setView: (view) => set({ view }),
}));
