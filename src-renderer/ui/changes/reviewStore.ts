import { create } from 'zustand';

/**
 * Which turn's review is open, and whether a session's Changes panel is. A badge in any feature's card opens a review
 * shown by the changes feature, so the request lives in the shared layer: the badge cannot import that feature.
 */
interface ReviewState {
  review: { sessionId: string; turnId: string } | null;
  /** The element focused when the review opened: focus goes back to it when the review closes. */
  returnFocus: HTMLElement | null;
  changesPanelOpen: Record<string, boolean>;
  openReview(sessionId: string, turnId: string): void;
  closeReview(): void;
  toggleChangesPanel(sessionId: string): void;
  showChangesPanel(sessionId: string): void;
}

export const useReview = create<ReviewState>((set) => ({
  review: null,
  returnFocus: null,
  changesPanelOpen: {},
  openReview: (sessionId, turnId) =>
    set({ review: { sessionId, turnId }, returnFocus: typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null) }),
  closeReview: () => set({ review: null }),
  toggleChangesPanel: (sessionId) => set((s) => ({ changesPanelOpen: { ...s.changesPanelOpen, [sessionId]: !s.changesPanelOpen[sessionId] } })),
  showChangesPanel: (sessionId) => set((s) => ({ changesPanelOpen: { ...s.changesPanelOpen, [sessionId]: true } })),
}));
