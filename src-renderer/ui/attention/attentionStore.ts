import { create } from 'zustand';

// What waits for the user, per session: consent prompts and checkpoint questions. features/attention keeps it in
// sync with the host; the sidebar (features/sessions), the Session tab and the window title read it. Shared by several
// features, so it lives in the shared layer.

export type WaitingKind = 'consent' | 'checkpoint';

export interface WaitingItem {
  kind: WaitingKind;
  /** The prompt id or the checkpoint's resume id. */
  id: string;
  sessionId: string;
  /** Who waits, in a few words: "scaffolder asks for files.write". */
  summary: string;
  /** When it was asked (ms since the epoch). */
  since: number;
}

export interface AttentionState {
  /** Per session, per kind, oldest first. */
  waiting: Record<string, Partial<Record<WaitingKind, WaitingItem[]>>>;
  setWaiting(sessionId: string, kind: WaitingKind, items: WaitingItem[]): void;
  /** A session the window no longer follows (closed, deleted). */
  forget(sessionId: string): void;
}

export const useAttention = create<AttentionState>((set) => ({
  waiting: {},
  setWaiting(sessionId, kind, items) {
    set((state) => ({ waiting: { ...state.waiting, [sessionId]: { ...state.waiting[sessionId], [kind]: items } } }));
  },
  forget(sessionId) {
    set((state) => {
      if (!(sessionId in state.waiting)) return state;
      const waiting = { ...state.waiting };
      delete waiting[sessionId];
      return { waiting };
    });
  },
}));

/** Everything waiting in one session, oldest first. */
export function waitingIn(state: AttentionState, sessionId: string): WaitingItem[] {
  const kinds = state.waiting[sessionId];
  if (!kinds) return [];
  return [...(kinds.consent ?? []), ...(kinds.checkpoint ?? [])].sort((a, b) => a.since - b.since);
}

/** How many things wait across every session. */
export function waitingTotal(state: AttentionState): number {
  let total = 0;
  for (const kinds of Object.values(state.waiting)) total += (kinds.consent?.length ?? 0) + (kinds.checkpoint?.length ?? 0);
  return total;
}
