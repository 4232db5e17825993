import type { Terminal } from '../../src-preload/contract';
import type { OmniClient } from '../bridge/connectionStore';
import { useGoal } from '../features/goal/goalStore';
import { openTerminal } from '../features/terminals/terminalActions';
import { useReview } from '../ui/changes/reviewStore';
import { useView, type MainView } from '../ui/viewStore';

// The app-wide actions that both a keyboard shortcut (useGlobalShortcuts) and the command palette (paletteActions)
// run: one function each, so the two can never drift apart. They compose features, so they live in app/.

/** A new terminal in the session, on the session page (the terminal takes the keyboard once the host has opened it). */
export function openTerminalInSession(client: OmniClient, sessionId: string): Promise<Terminal> {
  useView.getState().setView('session');
  return openTerminal(client, sessionId);
}

/** Unfolds the session's Goal panel and puts the keyboard in it, or folds it when the keyboard is in it already. */
export function toggleGoalPanel(sessionId: string): void {
  const focused = (document.activeElement?.closest('[data-testid="session-goal"]') ?? null) !== null;
  useView.getState().setView('session');
  useGoal.getState().togglePanel(sessionId, focused);
}

/** Unfolds or folds the session's Changes panel (every turn's changes and the rewind timeline). */
export function toggleChangesPanel(sessionId: string): void {
  useView.getState().setView('session');
  useReview.getState().toggleChangesPanel(sessionId);
}

/** Switches between the session page and the ledger. */
export function toggleLedger(): void {
  const { view, setView } = useView.getState();
  setView(view === 'ledger' ? 'session' : 'ledger');
}

/** Shows a main view with the keyboard on its tab, as choosing the tab does: Tab then goes into the view. */
export function showView(view: MainView): void {
  useView.getState().setView(view);
  document.getElementById(`tab-${view}`)?.focus();
}
