import type { Ledger } from '../ledger/ledger';
import type { CapabilityUse, CheckResult } from './consentTypes';
import { clip, validId, type PreparedUse } from './preparedUse';
import { recordedTarget } from './recordedTarget';

/** Records a denial (one consent.deny ledger entry) and hands the result back. */
export function recordDenial(ledger: Ledger, use: CapabilityUse, prepared: PreparedUse | null, result: CheckResult, actor?: string): CheckResult {
  ledger.append({
    type: 'consent.deny',
    actor: actor ?? (validId(use?.agentId) ? use.agentId : 'unknown-agent'),
    sessionId: validId(use?.sessionId) ? use.sessionId : null,
    payload: {
      capability: clip(use?.capability),
      target: recordedTarget(use?.target),
      scope: null,
      action: prepared && (prepared.sensitive || result.code === 'needs_prompt') ? recordedTarget(prepared.actionKey) : null,
      code: result.code,
      reason: result.reason,
      grantId: result.grantId ?? null,
    },
  });
  return result;
}
