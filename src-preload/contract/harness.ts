import { z } from 'zod';
import { call, liveList, stream } from './define';
import { SessionId } from './sessions';
import { Terminal } from './terminals';

/**
 * Harness sessions: a Claude Code or Codex CLI conversation the host runs for a workspace session
 * (spec/harness-continuity-and-invocation.md, where "CP" is the host). The host stores the provider-typed
 * continuation key once observed and relaunches the CLI with it after a restart.
 */
export const HarnessSessionId = z.string().regex(/^hrn_[A-Za-z0-9_-]{8,64}$/, 'expected a harness session id like "hrn_…"');

export const HarnessCliFrontend = z.enum(['claude-code', 'codex-cli']);
export type HarnessCliFrontend = z.infer<typeof HarnessCliFrontend>;

export const HarnessProvider = z.enum(['anthropic', 'openai']);

export const HarnessSession = z.object({
  id: HarnessSessionId,
  sessionId: SessionId,
  frontend: HarnessCliFrontend,
  provider: HarnessProvider,
  interactionMode: z.enum(['interactive', 'headless']),
  ioMode: z.enum(['pty', 'pipes']),
  model: z.string().nullable(),
  /** HarnessContinuationRef: the key is absent until the CLI has reported it (Codex does in its first event). */
  continuation: z.object({ provider: HarnessProvider, key: z.string().optional() }),
  /** The cwd the conversation began in; a resume runs there. */
  originCwd: z.string(),
  status: z.enum(['starting', 'running', 'exited', 'stopped', 'failed']),
  exitCode: z.number().int().nullable(),
  statusReason: z.string().nullable(),
  /** The last launch as a shell line, for people to copy (credential variables redacted). Never executed. */
  displayCommand: z.string().nullable(),
  /** The terminal card of a live interactive launch. */
  terminalId: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  launchedAt: z.number().int().nullable(),
});
export type HarnessSession = z.infer<typeof HarnessSession>;

/** What one launch gave: the stored session, the terminal card (interactive), warnings of the harness module. */
export const HarnessLaunch = z.object({ session: HarnessSession, terminal: Terminal.nullable(), warnings: z.array(z.string()) });
export type HarnessLaunch = z.infer<typeof HarnessLaunch>;

/** A headless run's output, parsed from the CLI's JSON events into what an output card shows. */
export const HarnessOutput = z.discriminatedUnion('type', [
  /** Text the model wrote. */
  z.object({ type: z.literal('text'), text: z.string() }),
  /** Any other event, summarized (a tool call, the turn's result, the thread starting). */
  z.object({ type: z.literal('event'), kind: z.string(), summary: z.string() }),
  /** A line on stderr, or a stdout line that was not JSON. */
  z.object({ type: z.literal('log'), text: z.string() }),
  z.object({ type: z.literal('exit'), exitCode: z.number().int().nullable(), signal: z.string().nullable() }),
]);
export type HarnessOutput = z.infer<typeof HarnessOutput>;

const Prompt = z.string().trim().min(1, 'a prompt cannot be empty').max(100_000, 'a prompt is at most 100,000 characters');
const Size = { cols: z.number().int().min(2).max(1000).optional(), rows: z.number().int().min(1).max(500).optional() };

export const harnessContract = {
  /** Starts a new conversation: interactive in a terminal card, or headless (a prompt is required) into an output card. */
  'harness.start': call(
    z
      .object({
        sessionId: SessionId,
        frontend: HarnessCliFrontend,
        interactionMode: z.enum(['interactive', 'headless']),
        prompt: Prompt.optional(),
        model: z.string().trim().min(1).max(200).optional(),
        ...Size,
      })
      .strict(),
    HarnessLaunch,
  ),
  /**
   * Relaunches a stored conversation with its continuation key, in its origin cwd. `frontend` defaults to the
   * stored one; a frontend of another provider is refused (HARNESS_PROVIDER_MISMATCH).
   */
  'harness.resume': call(
    z.object({ id: HarnessSessionId, frontend: HarnessCliFrontend.optional(), interactionMode: z.enum(['interactive', 'headless']).optional(), prompt: Prompt.optional(), ...Size }).strict(),
    HarnessLaunch,
  ),
  /** Ends the CLI and every process it started. */
  'harness.stop': call(z.object({ id: HarnessSessionId }), HarnessSession),
  'harness.list': call(z.object({ sessionId: SessionId }), z.array(HarnessSession)),
  'harness.watch': liveList(z.object({ sessionId: SessionId }), HarnessSession, (session) => session.id),
  /** A headless run's parsed output: what this host run has kept of it, then live; ends after `exit`. */
  'harness.output': stream(z.object({ id: HarnessSessionId }), HarnessOutput),
};
