import { isKnownCapability, isSensitive } from './capability';
import type { CapabilityUse } from './consentTypes';
import { normaliseTarget } from './scope';

export const MAX_TEXT = 2000;

export const clip = (value: unknown): string | null => (typeof value === 'string' ? value.slice(0, MAX_TEXT) : null);
export const validId = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 200;

/** A use whose fields were checked and whose target is in canonical form. */
export interface PreparedUse {
  agentId: string;
  sessionId: string;
  capability: string;
  /** Canonical target (see scope.ts), null for capabilities without scopes. */
  target: string | null;
  /** The target as the agent gave it, for the ledger and the prompt. */
  rawTarget: string | null;
  sensitive: boolean;
  /** What a per-action grant must name exactly (see actionKeyOf). */
  actionKey: string;
}

/**
 * `asking`: a request for consent rather than a use. A network use without a method counts as a write (fail
 * closed); a network request without one asks for the domain, which never covers writes anyway.
 */
export function prepareUse(use: CapabilityUse, asking = false): { ok: true; use: PreparedUse } | { ok: false; reason: string } {
  if (typeof use !== 'object' || use === null) return { ok: false, reason: 'the use must be an object' };
  if (!validId(use.agentId)) return { ok: false, reason: 'the agent id is missing or malformed' };
  if (!validId(use.sessionId)) return { ok: false, reason: 'the session id is missing or malformed' };
  if (!isKnownCapability(use.capability)) return { ok: false, reason: `unknown capability "${clip(String(use.capability))}"` };
  if (use.method !== undefined && (typeof use.method !== 'string' || !/^[A-Za-z]{1,20}$/.test(use.method))) {
    return { ok: false, reason: 'the method must be an HTTP method name like "GET"' };
  }
  if (use.action !== undefined && (typeof use.action !== 'string' || use.action.length > MAX_TEXT)) {
    return { ok: false, reason: `the action must be a string of at most ${MAX_TEXT} characters` };
  }
  const target = normaliseTarget(use.capability, use.target);
  if (!target.ok) return { ok: false, reason: target.reason };
  if (use.target !== undefined && typeof use.target !== 'string') return { ok: false, reason: 'the target must be a string' };
  const sensitive = asking && use.capability === 'network' && use.method === undefined ? false : isSensitive(use.capability, use.method);
  const rawTarget = use.target ?? null;
  const action = actionKeyOf(use, target.value, rawTarget);
  if (sensitive && use.capability === 'process.exec' && action === '') {
    return { ok: false, reason: 'process.exec must name the command line it runs (action)' };
  }
  return {
    ok: true,
    use: { agentId: use.agentId, sessionId: use.sessionId, capability: use.capability, target: target.value, rawTarget, sensitive, actionKey: action },
  };
}

/**
 * What a per-action grant names: for a network use "METHOD URL" (the action may be given as the URL or already as
 * "METHOD URL"; the target stands in when there is none), for process.exec the command line, for the others the
 * target. Compared as exact strings.
 */
function actionKeyOf(use: CapabilityUse, target: string | null, rawTarget: string | null): string {
  if (use.capability === 'network') {
    const method = (use.method ?? 'NONE').toUpperCase();
    const what = use.action ?? rawTarget ?? '';
    return what.toUpperCase().startsWith(`${method} `) ? `${method} ${what.slice(method.length + 1)}` : `${method} ${what}`;
  }
  if (use.capability === 'process.exec') return use.action ?? rawTarget ?? '';
  return use.action ?? target ?? '';
}
