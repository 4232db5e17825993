import { useEffect } from 'react';
import type { ConsentPrompt } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { useConsent } from './consentStore';

const none: ConsentPrompt[] = [];

/**
 * Listens for the session's consent prompts while the session is open. The host denies prompts nobody listens
 * to, so this lives with the session's view (kept mounted while hidden), not with whatever is on screen.
 *
 * While the host is away (no client) the cards stay, frozen: their buttons are off without a client, and the user
 * still sees what was asked. A new connection's stream starts with the prompts still pending, so what the older
 * one showed is dropped when it subscribes, not when it was lost.
 */
export function useConsentPrompts(sessionId: string, open: boolean): ConsentPrompt[] {
  const client = useConnection((s) => s.client);
  useEffect(() => {
    const { clearPrompts, applyPromptEvent } = useConsent.getState();
    if (!open) {
      clearPrompts(sessionId);
      return;
    }
    if (!client) return;
    clearPrompts(sessionId);
    const subscription = client.subscribe('consent.prompts', { sessionId }, { onItem: (event) => applyPromptEvent(sessionId, event) });
    return () => subscription.dispose();
  }, [client, sessionId, open]);
  // The session's view gone: nothing is left behind to count as waiting.
  useEffect(() => () => useConsent.getState().clearPrompts(sessionId), [sessionId]);
  return useConsent((s) => s.prompts[sessionId] ?? none);
}
