import { create } from 'zustand';
import type { ConsentPrompt, ConsentPromptEvent } from '../../../src-preload/contract';

export interface ConsentState {
  /** Unanswered prompts per session, oldest first. */
  prompts: Record<string, ConsentPrompt[]>;
  clearPrompts(sessionId: string): void;
  applyPromptEvent(sessionId: string, event: ConsentPromptEvent): void;
}

export const useConsent = create<ConsentState>((set) => ({
  prompts: {},
  clearPrompts(sessionId) {
    set((state) => ({ prompts: { ...state.prompts, [sessionId]: [] } }));
  },
  applyPromptEvent(sessionId, event) {
    set((state) => {
      const current = state.prompts[sessionId] ?? [];
      const next =
        event.kind === 'pending'
          ? [...current.filter((p) => p.id !== event.prompt.id), event.prompt]
          : current.filter((p) => p.id !== event.promptId);
      return { prompts: { ...state.prompts, [sessionId]: next } };
    });
  },
}));
