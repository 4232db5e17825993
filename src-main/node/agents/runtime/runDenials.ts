import type { DeniedCall } from '../../../../src-preload/contract/agents';
import type { Disposable } from '../../../../src-preload/rpc';
import type { Ledger } from '../../ledger/ledger';

/** Actors of a consent.deny that are not the agent: the user answering Deny, the host. */
const NOT_AN_AGENT = new Set(['user', 'host']);

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Every refusal the consent engine makes is one `consent.deny` ledger entry (scrubbed there): this hands each to
 * `deliver` with the agent it refused, so the agent's live run in that session can list it on its card. The entry's
 * actor is the agent, except when the user said Deny (then it is "user"): the agent is then the one whose
 * `consent.request` for that capability in that session came last. `granted` hears of each grant the user gives
 * (consent.grant names its agent).
 */
export function followDenials(
  ledger: Pick<Ledger, 'onDidAppend'>,
  deliver: (sessionId: string, agent: string, call: DeniedCall) => void,
  granted: (sessionId: string, agent: string) => void,
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
      if (agent) granted(entry.sessionId, agent);
      return;
    }
    if (entry.type !== 'consent.deny') return;
    const agent = NOT_AN_AGENT.has(entry.actor) ? lastAsker.get(key) : entry.actor;
    if (!agent) return;
    deliver(entry.sessionId, agent, {
      capability,
      target: text(entry.payload.target) ?? text(entry.payload.action),
      reason: text(entry.payload.reason) ?? 'refused',
      code: text(entry.payload.code) ?? 'denied',
      at: entry.ts,
    });
  });
}
