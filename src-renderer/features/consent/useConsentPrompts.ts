import { useEffect } from 'react';
import type { ConsentPrompt } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { useConsent } from './consentStore';

const none: ConsentPrompt[] = [];

/**
 * Listens for the session's consent prompts while the session is open. The host denies prompts nobody listens
 * to, so this lives with the session's view (kept mounted while hidden), not with whatever is on screen.
 */
export function useConsentPrompts(sessionId: string, open: boolean): ConsentPrompt[] {
  const client = useConnection((s) => s.client);
  useEffect(() => {
    const { clearPrompts, applyPromptEvent } = useConsent.getState();
    // The stream starts with the prompts still pending, so what an older connection showed is dropped first.
    clearPrompts(sessionId);
    if (!client || !open) return;
    const subscription = client.subscribe('consent.prompts', { sessionId }, { onItem: (event) => applyPromptEvent(sessionId, event) });
    return () => {
      subscription.dispose();
      clearPrompts(sessionId);
    };
  }, [client, sessionId, open]);
  return useConsent((s) => s.prompts[sessionId] ?? none);
}
