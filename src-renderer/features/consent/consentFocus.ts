// Where keyboard focus goes around consent cards: to a new card when it appears (unless the person is already on
// another card), and back to where they were once the last card is answered, so answering a prompt never leaves
// them at the top of the page.

const CARD = '[data-testid="consent-card"]';

/** Where focus was before the first card took it. */
let returnTo: HTMLElement | null = null;

const visible = (el: HTMLElement): boolean => el.isConnected && el.getClientRects().length > 0;

/** A card appeared: it takes focus, remembering where focus was. */
export function focusNewCard(card: HTMLElement): void {
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  if (active?.closest(CARD)) return;
  if (active && active !== document.body) returnTo = active;
  card.focus({ preventScroll: false });
}

/** A card went (answered, timed out, withdrawn): the next visible card, or the place focus came from. */
export function focusAfterCard(): void {
  const active = document.activeElement;
  // Focus the person moved elsewhere themselves stays where they put it.
  if (active && active !== document.body && !(active instanceof HTMLElement && active.closest(CARD))) return;
  const next = [...document.querySelectorAll<HTMLElement>(CARD)].find(visible);
  if (next) {
    next.focus();
    return;
  }
  const back = returnTo;
  returnTo = null;
  if (back && visible(back)) back.focus();
}
