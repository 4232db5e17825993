import { create } from 'zustand';
import type { BacklogMessage, Run } from '../../../src-preload/contract';
import { mergeRuns } from './runList';

export interface RunsState {
  /** Each session's process runs, newest first, as the host last described them. */
  bySession: Record<string, Run[]>;
  /** Why the session's runs cannot be shown (the host does not know the session, say); null when they can. */
  listError: Record<string, string | null>;
  /** Each session's backlog (watcher events for its agent), oldest first. */
  backlog: Record<string, BacklogMessage[]>;
  /** Runs whose terminal card is open, per session, in the order they were opened. */
  openCards: Record<string, string[]>;
  /** A card that should scroll into view once it is mounted (the one just opened). */
  revealRequest: string | null;
  mergeRuns(sessionId: string, runs: readonly Run[]): void;
  setListError(sessionId: string, error: string | null): void;
  setBacklog(sessionId: string, messages: BacklogMessage[]): void;
  openCard(sessionId: string, runId: string): void;
  closeCard(sessionId: string, runId: string): void;
  requestReveal(runId: string | null): void;
}

const none: readonly string[] = [];

export const useRuns = create<RunsState>((set) => ({
  bySession: {},
  listError: {},
  backlog: {},
  openCards: {},
  revealRequest: null,
  mergeRuns(sessionId, runs) {
    set((state) => {
      const current = state.bySession[sessionId] ?? [];
      const merged = mergeRuns(current, runs);
      return merged === current ? state : { bySession: { ...state.bySession, [sessionId]: merged } };
    });
  },
  setListError(sessionId, error) {
    set((state) => (state.listError[sessionId] === error ? state : { listError: { ...state.listError, [sessionId]: error } }));
  },
  setBacklog(sessionId, messages) {
    set((state) => ({ backlog: { ...state.backlog, [sessionId]: messages } }));
  },
  openCard(sessionId, runId) {
    set((state) => {
      const open = state.openCards[sessionId] ?? none;
      const revealRequest = runId;
      if (open.includes(runId)) return { revealRequest };
      return { openCards: { ...state.openCards, [sessionId]: [...open, runId] }, revealRequest };
    });
  },
  closeCard(sessionId, runId) {
    set((state) => ({ openCards: { ...state.openCards, [sessionId]: (state.openCards[sessionId] ?? none).filter((id) => id !== runId) } }));
  },
  requestReveal(revealRequest) {
    set({ revealRequest });
  },
}));
