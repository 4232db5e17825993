import { create } from 'zustand';

// Which main view is shown. The app's tabs set it; features read it (the ledger and the goal dialog act only while
// theirs is shown) or switch to the session view (after an agent is launched), so it lives in the shared layer, not
// in app/.

export type MainView = 'session' | 'agents' | 'ledger' | 'connections';

export const useView = create<{ view: MainView; setView(view: MainView): void }>((set) => ({
  view: 'session',
  setView: (view) => set({ view }),
}));
