import { create } from 'zustand';
import type { Session, SessionChange } from '../../src-preload/contract';

// The session list and which session is selected: features/sessions keeps it in sync with the host and owns the
// sidebar that selects; the ledger (session names, filters) and the agents view (launch in the selected session) read
// it. Shared by several features, so it lives in the shared layer.

const SELECTED_KEY = 'omni.selectedSession';

function rememberedSelection(): string | null {
  try {
    return sessionStorage.getItem(SELECTED_KEY);
  } catch {
    return null;
  }
}

export interface SessionsState {
  /** Every session the host knows, open and closed, in the host's order. */
  sessions: Session[];
  loaded: boolean;
  /** Kept across reloads of the tab so a reload lands on the same session. */
  selectedId: string | null;
  showClosed: boolean;
  replaceAll(sessions: Session[]): void;
  apply(change: SessionChange): void;
  select(id: string | null): void;
  setShowClosed(show: boolean): void;
}

export const useSessions = create<SessionsState>((set, get) => ({
  sessions: [],
  loaded: false,
  selectedId: rememberedSelection(),
  showClosed: false,
  replaceAll(sessions) {
    set({ sessions, loaded: true });
    const { selectedId } = get();
    if (selectedId && !sessions.some((s) => s.id === selectedId)) get().select(null);
    if (!get().selectedId) {
      const firstOpen = sessions.find((s) => s.status === 'open');
      if (firstOpen) get().select(firstOpen.id);
    }
  },
  apply({ session }) {
    set((state) => {
      const index = state.sessions.findIndex((s) => s.id === session.id);
      if (index === -1) return { sessions: [...state.sessions, session] };
      // A stale change (arriving after a fresher list) must not roll a session back.
      if (state.sessions[index].updatedAt > session.updatedAt) return state;
      const sessions = state.sessions.slice();
      sessions[index] = session;
      return { sessions };
    });
  },
  select(id) {
    set({ selectedId: id });
    try {
      if (id) sessionStorage.setItem(SELECTED_KEY, id);
      else sessionStorage.removeItem(SELECTED_KEY);
    } catch {
      // Without storage a reload simply selects the first open session.
    }
  },
  setShowClosed(showClosed) {
    set({ showClosed });
  },
}));
