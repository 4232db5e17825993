import type { AcpConversation } from '../../../src-preload/contract/acp';
import { isUuid } from '../harness/continuationKey';
import { AcpError } from './acpError';

/**
 * The provider domain a conversation's continuation key belongs to (spec/harness-continuity-and-invocation.md's
 * ProviderDomain): Claude Code's are `anthropic`, Codex's `openai` (the adapters' ACP session ids are the CLIs' own
 * session / thread UUIDs); any other agent's keys are its own (`acp:<agent>`).
 */
export function acpProviderOf(agentId: string): string {
  if (agentId === 'claude') return 'anthropic';
  if (agentId === 'codex') return 'openai';
  return `acp:${agentId}`;
}

/**
 * The key Resume may pass to session/load, or a typed error saying why the conversation cannot be resumed: never a
 * key of another provider (an Anthropic conversation is not resumed by Codex), never a non-UUID key for a CLI.
 */
export function resumableKey(record: AcpConversation): string {
  const key = record.continuation.key;
  if (!record.resumable || key === undefined) {
    throw new AcpError('ACP_NOT_RESUMABLE', `the ${record.agentName} conversation cannot be resumed: ${key === undefined ? 'the agent never gave it a session id' : 'the agent does not support session/load'}; start a new conversation`);
  }
  if (record.continuation.provider !== acpProviderOf(record.agentId)) {
    throw new AcpError('ACP_NOT_RESUMABLE', `the conversation's key belongs to ${record.continuation.provider}, but the "${record.agentId}" agent now serves ${acpProviderOf(record.agentId)}; start a new conversation`);
  }
  if (record.continuation.provider !== `acp:${record.agentId}` && !isUuid(key)) {
    throw new AcpError('ACP_NOT_RESUMABLE', `continuation key ${JSON.stringify(key)} is not a ${record.continuation.provider} session id (a UUID); start a new conversation`);
  }
  return key;
}
