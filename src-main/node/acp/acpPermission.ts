import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { ConsentEngine } from '../consent/consentEngine';
import type { Ledger } from '../ledger/ledger';
import { askPatiently, type WhenWatched } from './acpConsentAsk';
import { acpToolCapability } from './acpToolCapability';

export interface AcpPermissionContext {
  /** The consent engine's agent id for this agent (`acp:<agent>`). */
  agentId: string;
  sessionId: string;
  workspace: string;
  conversationId: string;
}

/** How long the card proposes; the user picks "once" or minutes anyway. */
const PROPOSED_GRANT_S = 10 * 60;
const MAX_REASON = 1800;

/**
 * One session/request_permission through the consent engine: a live grant answers without a card, otherwise the
 * user gets a card describing the call in plain words. The answer maps onto the agent's options: a once-grant →
 * allow_once, a timed grant → allow_always (the grant, scoped to the capability and the path or command, shows in
 * the grants panel and can be revoked there), a denial → reject_once. A request withdrawn (the turn was cancelled)
 * is answered `cancelled`. Every answer is ledgered (acp.permission), besides the engine's own consent entries.
 * An allow names the grant that allowed it (`grantId`), so the turn can retire a spent "Allow once" when it ends.
 */
export async function decideAcpPermission(
  engine: ConsentEngine,
  ledger: Ledger,
  context: AcpPermissionContext,
  request: RequestPermissionRequest,
  signal: AbortSignal,
  whenWatched?: WhenWatched,
): Promise<{ response: RequestPermissionResponse; allowed: boolean; target?: string; capability: string; grantId?: string }> {
  const who = { agentId: context.agentId, sessionId: context.sessionId };
  const use = acpToolCapability(request.toolCall, context.workspace);
  const record = (answer: string, option: PermissionOption | null, reason: string) =>
    ledger.append({
      type: 'acp.permission',
      actor: context.agentId,
      sessionId: context.sessionId,
      payload: { conversationId: context.conversationId, toolCallId: request.toolCall.toolCallId, title: request.toolCall.title ?? null, capability: use.capability, target: use.target ?? null, answer, optionId: option?.optionId ?? null, optionKind: option?.kind ?? null, reason },
    });
  const cancelled = (reason: string) => {
    record('cancelled', null, reason);
    return { response: { outcome: { outcome: 'cancelled' as const } }, allowed: false, capability: use.capability };
  };
  const reject = (reason: string) => {
    const option = pick(request.options, ['reject_once', 'reject_always']);
    if (!option) return cancelled(`${reason} (the agent offered no reject option)`);
    record('reject', option, reason);
    return { response: { outcome: { outcome: 'selected' as const, optionId: option.optionId } }, allowed: false, capability: use.capability, target: use.ok ? use.target : undefined };
  };
  if (signal.aborted) return cancelled('the turn was cancelled');
  if (!use.ok) {
    // Recorded as the engine's denial of what was asked for.
    engine.check({ ...who, capability: use.capability, target: use.target });
    return reject(use.reason);
  }
  const capabilityUse = { ...who, capability: use.capability, target: use.target, method: use.method, action: use.action };
  const reason = `${request.toolCall.title ? `${request.toolCall.title}: ` : ''}the agent wants to ${use.summary}`;
  const outcome = await askPatiently(engine, { ...capabilityUse, reason: reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason, durationS: PROPOSED_GRANT_S, signal }, whenWatched);
  if (signal.aborted) return cancelled('the turn was cancelled before the request was answered');
  if (outcome.decision !== 'allow') return reject(outcome.reason);
  const used = engine.check(capabilityUse);
  if (used.decision !== 'allow') return reject(used.reason);
  const once = outcome.grant?.once ?? true;
  const option = once ? pick(request.options, ['allow_once', 'allow_always']) : pick(request.options, ['allow_always', 'allow_once']);
  if (!option) return cancelled('allowed, but the agent offered no allow option');
  record('allow', option, once ? 'allowed once' : `allowed by grant ${outcome.grant?.id ?? ''}`.trim());
  return { response: { outcome: { outcome: 'selected', optionId: option.optionId } }, allowed: true, target: use.target, capability: use.capability, grantId: used.grantId };
}

function pick(options: PermissionOption[], kinds: PermissionOption['kind'][]): PermissionOption | undefined {
  for (const kind of kinds) {
    const found = options.find((o) => o.kind === kind);
    if (found) return found;
  }
  return undefined;
}
