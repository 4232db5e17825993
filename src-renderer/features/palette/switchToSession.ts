import { useSessions } from '../../ui/sessionsStore';
import { useView } from '../../ui/viewStore';

/**
 * Shows a session, as picking it in the sidebar does, and brings the session page to the front (the palette may
 * have been opened over the ledger). The keyboard lands on the session's entry in the sidebar, so Tab goes on from
 * where the user now is, not from a page that was just hidden.
 */
export function switchToSession(sessionId: string): void {
  useSessions.getState().select(sessionId);
  useView.getState().setView('session');
  const item = document.querySelector<HTMLElement>(`[data-testid="session-item"][data-session-id="${CSS.escape(sessionId)}"] button`);
  item?.focus();
}
