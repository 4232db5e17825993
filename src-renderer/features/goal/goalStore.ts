import { create } from 'zustand';
import type { GoalCheckpoint, GoalRunView, ProgressEntry, SessionStateRead } from '../../../src-preload/contract';

/** Progress lines kept per session in the view (the host keeps them all in the event log). */
export const MAX_PROGRESS_LINES = 1000;

export interface GoalState {
  /** The goal run as the host last described it, per session. */
  views: Record<string, GoalRunView | undefined>;
  /** Why there is no run view (no orchestrator in this host, the stream ended); null when there is one. */
  viewError: Record<string, string | null | undefined>;
  /** session.json as last read, or its problem. */
  stateReads: Record<string, SessionStateRead | undefined>;
  /** Checkpoints waiting for the user, oldest first. */
  checkpoints: Record<string, GoalCheckpoint[] | undefined>;
  progress: Record<string, ProgressEntry[] | undefined>;
  /** Sessions whose checkpoint dialog the user set aside with Escape (the question stays; a banner brings it back). */
  dialogSetAside: Record<string, boolean | undefined>;
  /** Sessions whose Goal panel is unfolded. */
  panelOpen: Record<string, boolean | undefined>;
  /** A Goal panel whose summary should take focus once it is shown (Ctrl+Shift+G). */
  focusRequest: string | null;
  /** Bumped each time the user saves a session's context.md: errors Run gave about the old text are stale then. */
  contextSaves: Record<string, number | undefined>;
  noteContextSaved(sessionId: string): void;
  setView(sessionId: string, view: GoalRunView): void;
  setViewError(sessionId: string, error: string | null): void;
  setStateRead(sessionId: string, read: SessionStateRead): void;
  /** The pending checkpoints as the host's live list has them; a question not shown before reopens a set-aside dialog. */
  setCheckpoints(sessionId: string, list: readonly GoalCheckpoint[]): void;
  checkpointAnswered(checkpoint: GoalCheckpoint): void;
  resetProgress(sessionId: string): void;
  addProgress(sessionId: string, entry: ProgressEntry): void;
  setDialogAside(sessionId: string, aside: boolean): void;
  setPanelOpen(sessionId: string, open: boolean): void;
  /** Unfolds the session's Goal panel and asks for focus on it (or folds it, if it is open and focused already). */
  togglePanel(sessionId: string, focused: boolean): void;
  clearFocusRequest(): void;
}

export const useGoal = create<GoalState>((set) => ({
  views: {},
  viewError: {},
  stateReads: {},
  checkpoints: {},
  progress: {},
  dialogSetAside: {},
  panelOpen: {},
  focusRequest: null,
  contextSaves: {},
  noteContextSaved: (sessionId) => set((s) => ({ contextSaves: { ...s.contextSaves, [sessionId]: (s.contextSaves[sessionId] ?? 0) + 1 } })),
  setView: (sessionId, view) => set((s) => ({ views: { ...s.views, [sessionId]: view }, viewError: { ...s.viewError, [sessionId]: null } })),
  setViewError: (sessionId, error) => set((s) => ({ viewError: { ...s.viewError, [sessionId]: error } })),
  setStateRead: (sessionId, read) =>
    set((s) => {
      // Reading a corrupt session.json moves it aside, so the next read finds no file at all: the problem (and where
      // the file was kept) stays on show until there is a state again.
      const before = s.stateReads[sessionId];
      if (read.state === null && read.problem === null && before?.problem?.kind === 'corrupt') return s;
      return { stateReads: { ...s.stateReads, [sessionId]: read } };
    }),
  setCheckpoints: (sessionId, list) =>
    set((s) => {
      const shown = new Set((s.checkpoints[sessionId] ?? []).map((c) => c.resumeId));
      const checkpoints = { ...s.checkpoints, [sessionId]: [...list] };
      // A new question is shown at once, even if the user set an earlier one aside.
      if (list.every((c) => shown.has(c.resumeId))) return { checkpoints };
      return { checkpoints, dialogSetAside: { ...s.dialogSetAside, [sessionId]: false } };
    }),
  checkpointAnswered: (checkpoint) =>
    set((s) => ({
      checkpoints: { ...s.checkpoints, [checkpoint.sessionId]: (s.checkpoints[checkpoint.sessionId] ?? []).filter((c) => c.resumeId !== checkpoint.resumeId) },
    })),
  resetProgress: (sessionId) => set((s) => ({ progress: { ...s.progress, [sessionId]: [] } })),
  addProgress: (sessionId, entry) =>
    set((s) => {
      const list = s.progress[sessionId] ?? [];
      const next = list.length >= MAX_PROGRESS_LINES ? [...list.slice(list.length - MAX_PROGRESS_LINES + 1), entry] : [...list, entry];
      return { progress: { ...s.progress, [sessionId]: next } };
    }),
  setDialogAside: (sessionId, aside) => set((s) => ({ dialogSetAside: { ...s.dialogSetAside, [sessionId]: aside } })),
  setPanelOpen: (sessionId, open) => set((s) => ({ panelOpen: { ...s.panelOpen, [sessionId]: open } })),
  togglePanel: (sessionId, focused) =>
    set((s) => {
      const fold = focused && (s.panelOpen[sessionId] ?? false);
      return { panelOpen: { ...s.panelOpen, [sessionId]: !fold }, focusRequest: sessionId };
    }),
  clearFocusRequest: () => set({ focusRequest: null }),
}));
