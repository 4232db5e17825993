import type { DeniedCall } from '../../../../src-preload/contract/agents';
import type { Disposable } from '../../../../src-preload/rpc';
import type { Ledger } from '../../ledger/ledger';

/** Actors of a consent.deny that are not the agent: the user answering Deny, the host. */
const NOT_AN_AGENT = new Set(['user', 'host']);

/** Codes of a use refused because nothing allows it yet (no grant; an action asked for each time). */
const UNANSWERED = new Set(['no_grant', 'needs_prompt']);

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Every refusal the consent engine makes is one `consent.deny` ledger entry (scrubbed there): this hands each to
 * `deliver` with the agent it refused, so the agent's live run in that session can list it on its card. The entry's
 * actor is the agent, except when the user said Deny (then it is "user"): the agent is then the one whose
 * `consent.request` for that capability in that session came last. `answered` says the refusal is final (the user,
 * a rule, a timeout, a revocation) rather than a use tried before asking. `granted` hears of each grant the user
 * gives (consent.grant names its agent and capability).
 */
export function followDenials(
  ledger: Pick<Ledger, 'onDidAppend'>,
  deliver: (sessionId: string, agent: string, call: DeniedCall, answered: boolean) => void,
  granted: (sessionId: string, agent: string, capability: string) => void,
): Disposable {
  const lastAsker = new Map<string, string>();
  return ledger.onDidAppend((entry) => {
    if (entry.sessionId === null) return;
    const capability = text(entry.payload.capability) ?? 'unknown';
    const key = `${entry.sessionId}\0${capability}`;
    if (entry.type === 'consent.request') {
      if (!NOT_AN_AGENT.has(entry.actor)) lastAsker.set(key, entry.actor);
      return;
    }
    if (entry.type === 'consent.grant') {
      const agent = text(entry.payload.agentId);
      if (agent) granted(entry.sessionId, agent, text(entry.payload.capability) ?? 'unknown');
      return;
    }
    if (entry.type !== 'consent.deny') return;
    const agent = NOT_AN_AGENT.has(entry.actor) ? lastAsker.get(key) : entry.actor;
    if (!agent) return;
    const code = text(entry.payload.code) ?? 'denied';
    // A use refused only for want of a grant (no_grant, needs_prompt) at check time is not an answer yet: the agent
    // may ask next. A refusal by the user, a rule, a timeout or a revocation is.
    const answered = NOT_AN_AGENT.has(entry.actor) || !UNANSWERED.has(code) || text(entry.payload.reason)?.includes('fail closed') === true;
    deliver(entry.sessionId, agent, {
      capability,
      target: text(entry.payload.target) ?? text(entry.payload.action),
      reason: text(entry.payload.reason) ?? 'refused',
      code,
      at: entry.ts,
    }, answered);
  });
}
