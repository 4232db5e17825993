import { z } from 'zod';
import { call, liveList, stream, withCheck } from './define';
import { SessionId } from './sessions';

/**
 * Agent Client Protocol conversations: a coding agent (Claude Code, Codex, Gemini CLI, or the user's own) run as an
 * ACP agent process for a workspace session (docs/acp.md). Everything the agent streams and everything the user
 * prompts goes into the session's event log, so the conversation shows after a restart without asking the agent;
 * Resume continues it through session/load with the stored ACP session id (the continuation key).
 */
const CONVERSATION_ID = /^acp_[A-Za-z0-9_-]{8,64}$/;
export const AcpConversationId = z.string().regex(CONVERSATION_ID, 'expected an ACP conversation id like "acp_…"');
export const AcpAgentId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'expected an agent id like "claude"');

export const AcpAgent = z.object({
  id: AcpAgentId,
  name: z.string(),
  source: z.enum(['builtin', 'user']),
  command: z.string(),
  args: z.array(z.string()),
  /** The program that would run, or null when it is not installed. */
  resolvedCommand: z.string().nullable(),
  /** A built-in that can be installed from the app (acp.install). */
  installable: z.boolean(),
  install: z.object({ package: z.string(), version: z.string() }).nullable(),
});
export type AcpAgent = z.infer<typeof AcpAgent>;

export const AcpMode = z.object({ id: z.string(), name: z.string(), description: z.string().nullable() });

export const AcpConversation = z.object({
  id: AcpConversationId,
  sessionId: SessionId,
  agentId: AcpAgentId,
  agentName: z.string(),
  /** The provider-typed continuation key: the ACP session id the agent gave, once it has. */
  continuation: z.object({ provider: z.string(), key: z.string().optional() }),
  workspace: z.string(),
  status: z.enum(['starting', 'ready', 'prompting', 'stopped', 'failed']),
  statusReason: z.string().nullable(),
  /** The error code of a failure (ACP_AGENT_CRASHED, …). */
  errorCode: z.string().nullable(),
  modes: z.object({ currentModeId: z.string(), available: z.array(AcpMode) }).nullable(),
  /** The agent's model choice where it offers one (a `model` config option). */
  models: z.object({ configId: z.string(), current: z.string(), available: z.array(z.object({ value: z.string(), name: z.string() })) }).nullable(),
  /** The agent's last usage_update: context tokens used of `size`, and the session's cost so far where it says. */
  usage: z.object({ used: z.number(), size: z.number(), cost: z.object({ amount: z.number(), currency: z.string() }).nullable() }).nullable(),
  /** Whether the agent can continue after a restart (it advertised session/load). */
  resumable: z.boolean(),
  sandboxed: z.boolean(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type AcpConversation = z.infer<typeof AcpConversation>;

/**
 * One stored entry of a conversation, in order: `seq` is the session event log's. `prompt`: what the user sent;
 * `update`: a session/update as the agent sent it (`data` is its `update`, any kind, known or not); `turn`: a turn
 * ended (`data.stopReason`); `error`: the agent failed (`data.code`, `data.message`); `notice`: something the agent
 * did that the host does not act on; `status`: the conversation's record changed.
 */
export const AcpEntry = z.object({
  seq: z.number().int(),
  ts: z.number().int(),
  conversationId: AcpConversationId,
  type: z.enum(['prompt', 'update', 'turn', 'error', 'notice', 'status']),
  data: z.unknown(),
});
export type AcpEntry = z.infer<typeof AcpEntry>;

const ENTRY_TYPES: ReadonlySet<unknown> = new Set(AcpEntry.shape.type.options);

/**
 * AcpEntry checked by hand: an agent's flood is thousands of entries a second, and the schema is the larger part of
 * what the page spends on each. Exactly what the schema accepts (test/rpc/streamCheck.test.ts holds them together).
 */
export function isAcpEntry(value: unknown): value is AcpEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entry = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(entry.seq) &&
    Number.isSafeInteger(entry.ts) &&
    typeof entry.conversationId === 'string' &&
    CONVERSATION_ID.test(entry.conversationId) &&
    ENTRY_TYPES.has(entry.type) &&
    'data' in entry
  );
}

export const AcpInstallProgress = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('started'), package: z.string(), version: z.string(), folder: z.string() }),
  z.object({ kind: z.literal('output'), line: z.string() }),
  z.object({ kind: z.literal('done'), command: z.string(), elapsedMs: z.number() }),
]);
export type AcpInstallProgress = z.infer<typeof AcpInstallProgress>;

const Prompt = z.string().trim().min(1, 'a prompt cannot be empty').max(100_000, 'a prompt is at most 100,000 characters');

export const acpContract = {
  /** The agents that can be started, and what is wrong with `<home>/acp-agents.json` if anything. */
  'acp.agents': call(z.object({}).strict(), z.object({ agents: z.array(AcpAgent), problems: z.array(z.string()) })),
  /** Installs a built-in agent's pinned adapter into `<home>/acp-agents`; ends after `done` (or with the error). */
  'acp.install': stream(z.object({ agentId: AcpAgentId }).strict(), AcpInstallProgress),
  /** Starts the agent for a session: initialize, session/new. */
  'acp.start': call(z.object({ sessionId: SessionId, agent: AcpAgentId }).strict(), AcpConversation),
  /** Sends a prompt; answers when the turn has ended (its stop reason); updates stream meanwhile through acp.updates. */
  'acp.prompt': call(z.object({ conversationId: AcpConversationId, text: Prompt }).strict(), z.object({ stopReason: z.string() })),
  /** session/cancel: the turn ends `cancelled`, pending permission requests are answered `cancelled`. */
  'acp.cancel': call(z.object({ conversationId: AcpConversationId }).strict(), z.object({})),
  /** Restarts a stopped conversation's agent and continues it with session/load. */
  'acp.resume': call(z.object({ conversationId: AcpConversationId }).strict(), AcpConversation),
  'acp.setMode': call(z.object({ conversationId: AcpConversationId, modeId: z.string().min(1).max(200) }).strict(), AcpConversation),
  'acp.setModel': call(z.object({ conversationId: AcpConversationId, model: z.string().min(1).max(200) }).strict(), AcpConversation),
  /** Stops the agent (its whole process tree); the conversation stays and can be resumed. */
  'acp.stop': call(z.object({ conversationId: AcpConversationId }).strict(), AcpConversation),
  'acp.watch': liveList(z.object({ sessionId: SessionId }), AcpConversation, (conversation) => conversation.id),
  /** The conversation's stored entries after `sinceSeq`, then live ones. */
  'acp.updates': withCheck(stream(z.object({ conversationId: AcpConversationId, sinceSeq: z.number().int().min(0).optional() }), AcpEntry), isAcpEntry),
};
