import { z } from 'zod';
import { call, stream } from './define';
import { SessionId } from './sessions';

export const RunId = z.string().regex(/^run_[A-Za-z0-9_-]{8,64}$/, 'expected an agent run id like "run_…"');

/** An installed agent as the Agents view lists it: its manifest, and whether it can run. */
export const AgentInfo = z.object({
  name: z.string(),
  version: z.string(),
  sandbox: z.enum(['wasm', 'native']),
  capabilities: z.array(z.string()),
  oauthScopes: z.array(z.string()),
  uiHints: z.array(z.string()),
  /** Declared quotas: CPU in millicores, memory in bytes. */
  cpuMillicores: z.number().int().nullable(),
  memBytes: z.number().int().nullable(),
  source: z.enum(['bundled', 'user']),
  folder: z.string(),
  manifestSha256: z.string(),
  warnings: z.array(z.string()),
  /** The manifest's optional `description`: what the agent is for, in a sentence (null when it has none). */
  description: z.string().nullable(),
  /** The manifest's optional `ui.example_prompt`: a prompt that shows what to ask it (null when it has none). */
  examplePrompt: z.string().nullable(),
  /** `ui.hints` has "internal": a helper other agents run (the goal run's executor); the launcher does not offer it. */
  internal: z.boolean(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

/** A folder under an agents directory whose manifest does not validate: shown with its errors, never run. */
export const BrokenAgent = z.object({ folder: z.string(), source: z.enum(['bundled', 'user']), errors: z.array(z.string()) });
export type BrokenAgent = z.infer<typeof BrokenAgent>;

export const AgentState = z.enum(['Registered', 'Initialized', 'Active', 'Suspended', 'Terminated']);

/** `interrupted`: the host stopped (a crash, a kill) while the run was live; the restarted host closed it. */
export const RunOutcome = z.enum(['running', 'completed', 'failed', 'stopped', 'timeout', 'cpu_budget', 'memory_limit', 'interrupted']);

/** A capability use the run was refused (by a rule, the user, a timeout, a missing grant): one row on its card. */
export const DeniedCall = z.object({
  /** The capability asked for, e.g. "files.read", "network", "process.exec". */
  capability: z.string(),
  /** What it was for: the path, host, or command as the consent engine recorded it (null when it named none). */
  target: z.string().nullable(),
  /** Why it was refused, in the consent engine's words. */
  reason: z.string(),
  /** The consent engine's code: no_grant, needs_prompt, denied_by_rule, revoked, expired, bad_request… */
  code: z.string(),
  at: z.number().int(),
});
export type DeniedCall = z.infer<typeof DeniedCall>;

export const AgentRunInfo = z.object({
  id: RunId,
  sessionId: z.string(),
  agent: z.string(),
  prompt: z.string(),
  state: AgentState,
  outcome: RunOutcome,
  startedAt: z.number().int(),
  endedAt: z.number().int().nullable(),
  /** Why it failed or stopped, in words the user can act on. */
  error: z.object({ code: z.string(), message: z.string(), hint: z.string().nullable() }).nullable(),
  /** How many of its capability uses were refused so far (each is a `denied` event): a completed run with some is "partly denied". */
  deniedCalls: z.number().int().min(0),
  /**
   * How many grants the user gave it during the run (consent.grant). With refusals too it did part of its work
   * ("partly denied"); with refusals and no grant it was denied what it needed ("denied").
   */
  grantsGiven: z.number().int().min(0),
});
export type AgentRunInfo = z.infer<typeof AgentRunInfo>;

export const CardKind = z.enum(['markdown', 'code', 'diff', 'log', 'image', 'text']);

/** What a run's card stream carries; replayed from the run's start for a new subscriber. */
export const AgentRunEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('state'), state: AgentState, cause: z.string(), detail: z.string().nullable() }),
  /** A chunk of output: appended to card `cardId` (created with the chunk that first names it). */
  z.object({
    kind: z.literal('output'),
    cardId: z.string(),
    cardKind: CardKind,
    contentType: z.string(),
    language: z.string().nullable(),
    data: z.string(),
  }),
  z.object({ kind: z.literal('artifact'), id: z.string(), artifactKind: z.string(), path: z.string(), previewHint: z.string().nullable() }),
  z.object({ kind: z.literal('error'), code: z.string(), message: z.string(), hint: z.string().nullable() }),
  z.object({ kind: z.literal('state_update'), key: z.string(), value: z.unknown(), scope: z.enum(['agent', 'session']) }),
  /** A capability use the run was refused. */
  z.object({ kind: z.literal('denied'), call: DeniedCall }),
  /** The run ended; nothing follows. */
  z.object({ kind: z.literal('ended'), run: AgentRunInfo }),
]);
export type AgentRunEvent = z.infer<typeof AgentRunEvent>;

export const agentContract = {
  /** Installed agents (bundled and the user's), looked up again on each call, and the broken ones with their errors. */
  'agent.list': call(z.object({}), z.object({ agents: z.array(AgentInfo), broken: z.array(BrokenAgent), warnings: z.array(z.string()) })),
  /** Starts an agent in a session with a prompt; its output and consent prompts follow on the streams. */
  'agent.start': call(z.object({ sessionId: SessionId, agent: z.string().min(1).max(200), prompt: z.string().max(100_000) }), AgentRunInfo),
  'agent.runs': call(z.object({ sessionId: SessionId }), z.array(AgentRunInfo)),
  'agent.stop': call(z.object({ runId: RunId }), AgentRunInfo),
  'agent.suspend': call(z.object({ runId: RunId }), AgentRunInfo),
  'agent.resume': call(z.object({ runId: RunId }), AgentRunInfo),
  /** Everything the run produced so far, then live; ends after `ended`. Output costs its length in credit. */
  'agent.events': stream(z.object({ runId: RunId }), AgentRunEvent, (event) => (event.kind === 'output' ? Math.max(1, event.data.length) : 1)),
};
