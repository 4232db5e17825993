import { useSessions } from '../sessionsStore';
import { useView } from '../viewStore';
import type { WaitingItem } from './attentionStore';

/** How long to look for the card after switching to its session (it renders within a frame or two). */
const FIND_CARD_MS = 3_000;

/** Where the item shows: its consent card, or the checkpoint dialog of its session. */
function selectorFor(item: WaitingItem): string {
  const id = CSS.escape(item.id);
  const session = `[data-testid="session-view"][data-session-id="${CSS.escape(item.sessionId)}"]`;
  return item.kind === 'consent' ? `${session} [data-testid="consent-card"][data-prompt-id="${id}"]` : `${session} [data-testid="checkpoint-dialog"]`;
}

/**
 * Brings the user to what waits: the window to the front, its session selected on the Session view, the card
 * scrolled into view and focused (so the keyboard answers it). From the sidebar's badge and from a notification.
 */
export function goToWaiting(item: WaitingItem): void {
  goToSession(item.sessionId, selectorFor(item));
}

/** The window to the front, the session shown, and the element `selector` finds (once it renders) focused. */
export function goToSession(sessionId: string, selector: string): void {
  window.focus();
  useView.getState().setView('session');
  useSessions.getState().select(sessionId);
  const started = performance.now();
  const look = (): void => {
    const card = document.querySelector<HTMLElement>(selector);
    if (card && card.offsetParent !== null) {
      // A card is not focusable by itself; -1 makes it focusable by script only, not a Tab stop.
      if (card.tabIndex < 0 && !card.hasAttribute('tabindex')) card.tabIndex = -1;
      card.scrollIntoView({ block: 'nearest' });
      card.focus();
      return;
    }
    if (performance.now() - started < FIND_CARD_MS) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}
