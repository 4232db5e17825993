import { create } from 'zustand';
import type { PaletteOpening } from './paletteKeys';

/**
 * The element that has the keyboard, looking into shadow roots: a terminal's input lives in its screen's shadow root,
 * where document.activeElement only names the root's host.
 */
function deepActiveElement(): HTMLElement | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

export interface PaletteState {
  open: boolean;
  query: string;
  /** Where the keyboard was before the palette opened: Escape gives it back. */
  returnFocus: HTMLElement | null;
  /** An action that failed after the palette closed: what, and why. */
  failure: { title: string; message: string } | null;
  /** Opens it with the query `opening` ('' or '>'); when open already, switches to that mode and keeps the saved focus. */
  show(opening: PaletteOpening): void;
  setQuery(query: string): void;
  close(): void;
  setFailure(failure: PaletteState['failure']): void;
}

export const usePalette = create<PaletteState>((set, get) => ({
  open: false,
  query: '',
  returnFocus: null,
  failure: null,
  show(opening) {
    if (get().open) {
      set({ query: opening });
      return;
    }
    set({ open: true, query: opening, failure: null, returnFocus: deepActiveElement() });
  },
  setQuery: (query) => set({ query }),
  close: () => set({ open: false, query: '', returnFocus: null }),
  setFailure: (failure) => set({ failure }),
}));
