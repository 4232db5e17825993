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

/** Which run cards are open, per session, kept for the tab's lifetime so a reload brings them back (and replays them). */
const OPEN_CARDS_KEY = 'omni.runs.openCards';

function loadOpenCards(): Record<string, string[]> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(OPEN_CARDS_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const open: Record<string, string[]> = {};
    for (const [sessionId, runIds] of Object.entries(parsed)) {
      if (Array.isArray(runIds)) open[sessionId] = runIds.filter((id): id is string => typeof id === 'string');
    }
    return open;
  } catch {
    return {}; // No storage (or something else wrote there): start with no cards open.
  }
}

function saveOpenCards(openCards: Record<string, string[]>): void {
  try {
    sessionStorage.setItem(OPEN_CARDS_KEY, JSON.stringify(openCards));
  } catch {
    // Storage full or unavailable: the cards just do not survive a reload.
  }
}

export const useRuns = create<RunsState>((set) => ({
  bySession: {},
  listError: {},
  backlog: {},
  openCards: loadOpenCards(),
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

useRuns.subscribe((state, previous) => {
  if (state.openCards !== previous.openCards) saveOpenCards(state.openCards);
});
