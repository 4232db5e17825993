import { create } from 'zustand';
import type { ConsentGrant, ConsentPrompt, ConsentPromptEvent, GrantChange } from '../../../src-preload/contract';

export interface ConsentState {
  /** Unanswered prompts per session, oldest first. */
  prompts: Record<string, ConsentPrompt[]>;
  /** Grants the user can still revoke (live, or used once-grants whose work is in flight), per session. */
  grants: Record<string, ConsentGrant[]>;
  clearPrompts(sessionId: string): void;
  applyPromptEvent(sessionId: string, event: ConsentPromptEvent): void;
  setGrants(sessionId: string, grants: ConsentGrant[]): void;
  applyGrantChange(change: GrantChange): void;
}

const revocable = (grant: ConsentGrant): boolean => grant.status === 'live' || grant.status === 'used';

export const useConsent = create<ConsentState>((set) => ({
  prompts: {},
  grants: {},
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
  setGrants(sessionId, grants) {
    set((state) => ({ grants: { ...state.grants, [sessionId]: grants.filter(revocable) } }));
  },
  applyGrantChange({ kind, grant }) {
    set((state) => {
      const current = state.grants[grant.sessionId] ?? [];
      const others = current.filter((g) => g.id !== grant.id);
      // A spent once-grant (its run is over) is still 'used' but nothing runs under it any more.
      const next = kind !== 'spent' && revocable(grant) ? [...others, grant].sort((a, b) => a.grantedAt - b.grantedAt) : others;
      return { grants: { ...state.grants, [grant.sessionId]: next } };
    });
  },
}));
