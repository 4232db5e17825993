import { create } from 'zustand';

export type MainView = 'session' | 'agents' | 'ledger' | 'connections';

export const useView = create<{ view: MainView; setView(view: MainView): void }>((set) => ({
  view: 'session',
  setView: (view) => set({ view }),
}));
