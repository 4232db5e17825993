import { useSessions } from '../../ui/sessionsStore';
import { useView } from '../../ui/viewStore';

/** Whether the user is looking at this window right now (visible and focused). */
export function windowWatched(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

/** Whether the session's page is what the window shows (its cards are on screen if the user looks). */
export function sessionOnScreen(sessionId: string): boolean {
  return useView.getState().view === 'session' && useSessions.getState().selectedId === sessionId;
}

/** The window's title with the count of what waits in front: "(2) Omniscient Shell". */
export function titleWithCount(base: string, count: number): string {
  return count > 0 ? `(${count}) ${base}` : base;
}
