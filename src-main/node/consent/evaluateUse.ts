import type { ConsentGrant } from '../../../src-preload/contract';
import type { CheckResult } from './consentTypes';
import type { ActiveGrant, LiveGrants } from './liveGrants';
import type { PreparedUse } from './preparedUse';
import type { RuleBook } from './ruleBook';
import { compileScope, type ScopeMatcher } from './scope';

/**
 * What decides a use: deny rule > ask rule / sensitive action > grant > nothing (default deny). A live grant found
 * past its time is ended on the spot (a timer can fire late; the clock decides, not the timer).
 *
 * `holder`: the use is made by whoever holds a spent once-grant (LiveGrants.hold, a credential handle for one run);
 * that grant covers it (first choice: it is the holder's own) until it is released or revoked.
 */
export function evaluateUse(use: PreparedUse, rules: RuleBook, grants: LiveGrants, now: number, holder?: string): CheckResult {
  const matching = rules.matching(use);
  const denyRule = matching.find((r) => r.effect === 'deny');
  if (denyRule) return { decision: 'deny', code: 'denied_by_rule', reason: `a rule of the user's forbids ${use.capability}${denyRule.scope ? ` on ${denyRule.scope}` : ''} (${denyRule.id})` };
  const exact = use.sensitive || matching.some((r) => r.effect === 'ask');
  const covers = (grant: ConsentGrant, matches: ScopeMatcher) =>
    matches(use.target) && (exact ? grant.action === use.actionKey : grant.action === null || grant.action === use.actionKey);

  let chosen: ActiveGrant | undefined;
  for (const found of grants.candidates(use.sessionId, use.agentId, use.capability)) {
    if (holder !== undefined && found.heldBy === holder) {
      if (covers(found.grant, found.matches)) return { decision: 'allow', code: 'granted', reason: 'the once-grant this holder spent covers this use', grantId: found.grant.id };
      continue;
    }
    if (found.grant.status !== 'live') continue;
    if (now >= found.grant.expiresAt) {
      grants.end(found, 'expired', found.grant.agentId, 'the grant ran out');
      continue;
    }
    if (!covers(found.grant, found.matches)) continue;
    // Keep an "Allow once" for when nothing else covers the use.
    if (!chosen || (chosen.grant.once && !found.grant.once)) chosen = found;
  }
  if (chosen) return { decision: 'allow', code: 'granted', reason: 'a live grant covers this use', grantId: chosen.grant.id };

  for (const ended of grants.store.ended(use.sessionId, use.agentId, use.capability)) {
    const matches = compileScope(ended.capability, ended.scope);
    if (!matches.ok || !covers(ended, matches.matches)) continue;
    const why = ended.status === 'revoked' ? 'revoked' : 'expired';
    return { decision: 'deny', code: why, reason: `the grant that covered this was ${why} (${ended.id})`, grantId: ended.id };
  }
  if (exact) {
    return {
      decision: 'deny',
      code: 'needs_prompt',
      reason: use.sensitive ? 'a sensitive action needs the user\'s consent for exactly this action' : 'a rule of the user\'s asks before every use of this',
    };
  }
  return { decision: 'deny', code: 'no_grant', reason: 'no live grant covers this use (default deny)' };
}
