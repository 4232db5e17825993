import type { ConsentEngine } from '../../consent/consentEngine';
import { claudeToolCapability } from './claudeToolCapability';

/** Whose tool calls these are: the agent and session the consent cards and grants belong to, and its workspace. */
export interface PermissionSession {
  agentId: string;
  sessionId: string;
  /** The CLI's cwd (absolute); file paths are judged relative to it. */
  workspace: string;
}

/** What Claude Code sends the --permission-prompt-tool: the tool it wants to run and that tool's input. */
export interface PermissionRequest {
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id?: string;
}

/** What the tool answers (as JSON text): Claude Code runs the tool with `updatedInput`, or tells the model `message`. */
export type PermissionResult = { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };

/** How long the card proposes; the user picks "once" or a number of minutes anyway. */
const PROPOSED_GRANT_S = 10 * 60;

/**
 * One permission request through the consent engine, like any agent's: a live grant answers at once, otherwise the
 * user gets a card; every way of not getting an answer (no card open, timeout, `signal` aborted because the CLI or
 * its request went away, shutdown) is a denial. An allow is then used (check), which spends an "Allow once".
 * The ledger gets what every consent gets: consent.request, then consent.grant or consent.deny.
 * `onUsed` hears which grant allowed the use, so the session can retire a spent "Allow once" when it ends.
 */
export async function decidePermission(
  engine: ConsentEngine,
  session: PermissionSession,
  request: PermissionRequest,
  signal: AbortSignal,
  onUsed?: (grantId: string) => void,
): Promise<PermissionResult> {
  const who = { agentId: session.agentId, sessionId: session.sessionId };
  const mapped = claudeToolCapability(request.tool_name, request.input, session.workspace);
  if (!mapped.ok) {
    // Recorded as a denial of what was asked for, under the name Claude Code gave it when there is no capability.
    engine.check({ ...who, capability: mapped.capability ?? `claude-code:${request.tool_name}`, target: mapped.target });
    return deny(mapped.reason);
  }
  const use = { ...who, capability: mapped.capability, target: mapped.target, method: mapped.method, action: mapped.action };
  const outcome = await engine.ask({ ...use, reason: shorten(`Claude Code wants to ${mapped.summary}`), durationS: PROPOSED_GRANT_S, signal });
  if (outcome.decision !== 'allow') return deny(outcome.reason);
  if (signal.aborted) return deny('the request was withdrawn before it was answered');
  const used = engine.check(use);
  if (used.decision !== 'allow') return deny(used.reason);
  if (used.grantId) onUsed?.(used.grantId);
  return { behavior: 'allow', updatedInput: request.input };
}

/**
 * The card's reason is for reading (the engine takes at most 2000 characters); what is granted is the use itself,
 * shown in full as the card's target and action.
 */
const MAX_REASON = 400;
const shorten = (text: string): string => (text.length <= MAX_REASON ? text : `${text.slice(0, MAX_REASON - 1)}…`);

const deny = (reason: string): PermissionResult => ({ behavior: 'deny', message: `Denied by Omni Shell's consent: ${reason}` });
