import { create } from 'zustand';
import type { Terminal } from '../../../src-preload/contract';

export interface TerminalsState {
  /** The host's terminals per session, in opening order. The host's live list (`terminal.watch`) is the source of truth. */
  bySession: Record<string, Terminal[]>;
  setForSession(sessionId: string, terminals: Terminal[]): void;
  add(terminal: Terminal): void;
  remove(id: string): void;
  /** A terminal that should take keyboard focus once its card is ready (the one the user just opened). */
  focusRequest: string | null;
  requestFocus(id: string | null): void;
}

export const useTerminals = create<TerminalsState>((set) => ({
  bySession: {},
  focusRequest: null,
  requestFocus(focusRequest) {
    set({ focusRequest });
  },
  setForSession(sessionId, terminals) {
    const ordered = terminals.slice().sort((a, b) => a.createdAt - b.createdAt);
    set((state) => ({ bySession: { ...state.bySession, [sessionId]: ordered } }));
  },
  add(terminal) {
    set((state) => {
      const current = state.bySession[terminal.sessionId] ?? [];
      if (current.some((t) => t.id === terminal.id)) return state;
      return { bySession: { ...state.bySession, [terminal.sessionId]: [...current, terminal] } };
    });
  },
  remove(id) {
    set((state) => {
      const bySession: Record<string, Terminal[]> = {};
      for (const [sessionId, list] of Object.entries(state.bySession)) bySession[sessionId] = list.filter((t) => t.id !== id);
      return { bySession };
    });
  },
}));
