import { z } from 'zod';
import { call, liveList, stream } from './define';
import { SessionId } from './sessions';

/**
 * The `shell` tool (spec/shell-exec-actions.md). Field names are the spec's, snake_case, because agents and the
 * `omni shell` command send this same JSON. `keys` (for send_keys) is ours: the spec leaves send_keys a stub.
 */
export const ExecRunId = z.string().regex(/^run_[A-Za-z0-9_-]{8,64}$/, 'expected a run id like "run_…" (spawn returns one)');
export type ExecRunId = z.infer<typeof ExecRunId>;

export const ShellAction = z.enum(['spawn', 'poll', 'kill', 'send_keys']);
export type ShellAction = z.infer<typeof ShellAction>;

/** A string is run by /bin/sh -c; an array is the argv itself (no shell parsing). */
export const ShellCommand = z.union([
  z.string().min(1, 'command cannot be empty').max(100_000, 'a command line is at most 100,000 characters'),
  z
    .array(z.string().max(100_000))
    .min(1, 'an argv array needs at least the program')
    .max(10_000)
    .refine((argv) => argv[0] !== '', 'argv[0] (the program) cannot be empty'),
]);
export type ShellCommand = z.infer<typeof ShellCommand>;

export const Watcher = z
  .object({
    regex: z.string().min(1, 'a watcher needs a regex').max(10_000),
    /** The name of the event item written (and the backlog message sent) on a match. */
    event: z.string().min(1, 'a watcher needs an event name').max(200),
    /** Fire on the first match only. */
    once: z.boolean().optional(),
    /** Which output the regex watches: stdout, stderr or both (default). A PTY has only one stream: output. */
    scope: z.enum(['stdout', 'stderr', 'output', 'both']).optional(),
  })
  .strict();
export type Watcher = z.infer<typeof Watcher>;

export const MAX_TIMEOUT_SECS = 7 * 24 * 3600;
export const MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;

export const ShellRequest = z
  .object({
    action: ShellAction.optional(),
    command: ShellCommand.optional(),
    background: z.boolean().optional(),
    pty: z.boolean().optional(),
    timeout_secs: z
      .number()
      .positive('timeout_secs must be more than 0 (seconds)')
      .max(MAX_TIMEOUT_SECS, `timeout_secs is at most ${MAX_TIMEOUT_SECS} (a week)`)
      .optional(),
    max_output_bytes: z
      .number()
      .int('max_output_bytes must be a whole number of bytes')
      .positive('max_output_bytes must be more than 0')
      .max(MAX_OUTPUT_BYTES, `max_output_bytes is at most ${MAX_OUTPUT_BYTES} (1 GiB)`)
      .optional(),
    watch: z.array(Watcher).max(64, 'at most 64 watchers per run').optional(),
    run_id: ExecRunId.optional(),
    since_seq: z.number().int('since_seq must be a whole number').min(0, 'since_seq cannot be negative').optional(),
    session_id: SessionId.optional(),
    /** send_keys: text and named keys (Enter, Tab, Escape, Backspace, Up, Down, Left, Right, C-c, C-d, ...). */
    keys: z.array(z.string().max(100_000)).min(1).max(1000).optional(),
    /** Working directory inside the session's workspace (relative to it); the workspace root by default. */
    cwd: z.string().max(4096).optional(),
  })
  .strict();
export type ShellRequest = z.infer<typeof ShellRequest>;

/**
 * `interrupted`: the host stopped under an agent's run, and the agent run that asked for it (with its grants) ended
 * with that host: it is not run again (a user's run is queued again instead).
 */
export const RunStatus = z.enum(['queued', 'running', 'exited', 'killed', 'timed_out', 'failed', 'interrupted']);
export type RunStatus = z.infer<typeof RunStatus>;

/**
 * One persisted item of a run, numbered gaplessly from 1. `stdout`/`stderr` in pipe mode, `output` in PTY mode,
 * `input` for send_keys, `event` for everything else (watcher match, truncation, timeout, kill, recovery, exit).
 */
export const RunItem = z.object({
  seq: z.number().int().min(1),
  ts: z.number().int(),
  kind: z.enum(['stdout', 'stderr', 'output', 'input', 'event']),
  /** Text for output and input items; the event name for event items. */
  data: z.string(),
  /** Details of an event item. */
  detail: z.record(z.string(), z.unknown()).optional(),
});
export type RunItem = z.infer<typeof RunItem>;

export const Run = z.object({
  run_id: ExecRunId,
  session_id: SessionId,
  /** 'user' or the agent id that asked. */
  actor: z.string(),
  argv: z.array(z.string()),
  cwd: z.string(),
  pty: z.boolean(),
  background: z.boolean(),
  status: RunStatus,
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  /** Why a run failed or was stopped, in words. */
  reason: z.string().nullable(),
  timeout_secs: z.number().nullable(),
  max_output_bytes: z.number().int().nullable(),
  output_bytes: z.number().int(),
  truncated: z.boolean(),
  attempt: z.number().int(),
  created_at: z.number().int(),
  started_at: z.number().int().nullable(),
  ended_at: z.number().int().nullable(),
  last_seq: z.number().int(),
  /** Which OS limits the sandbox enforced for this run, e.g. ["bwrap", "seccomp", "cgroup:memory"]. */
  sandbox: z.array(z.string()),
});
export type Run = z.infer<typeof Run>;

export const ShellResult = z.union([
  /** spawn */
  z.object({ action: z.literal('spawn'), run_id: ExecRunId, status: RunStatus }),
  /** poll: exactly the items after since_seq (up to a page), the run's status, and where to continue. */
  z.object({
    action: z.literal('poll'),
    run_id: ExecRunId,
    status: RunStatus,
    exit_code: z.number().int().nullable(),
    items: z.array(RunItem),
    next_seq: z.number().int(),
    /** More items exist after this page: poll again with since_seq = next_seq. */
    more: z.boolean(),
  }),
  z.object({ action: z.literal('kill'), run_id: ExecRunId, status: RunStatus }),
  z.object({ action: z.literal('send_keys'), run_id: ExecRunId, seq: z.number().int() }),
  /** The legacy synchronous one-shot (no action). */
  z.object({
    action: z.literal('run'),
    run_id: ExecRunId,
    status: RunStatus,
    exit_code: z.number().int().nullable(),
    stdout: z.string(),
    stderr: z.string(),
    truncated: z.boolean(),
  }),
]);
export type ShellResult = z.infer<typeof ShellResult>;

/**
 * The shell tool's operations one call each, for the UI: typed requests in the contract's own style (camelCase, every
 * field an operation needs required by its schema), on the same ExecService and rules as `exec.shell`.
 */
export const SpawnRequest = z
  .object({
    sessionId: SessionId,
    command: ShellCommand,
    /** Run in a pseudo-terminal (keys can be sent; one output stream). */
    pty: z.boolean().optional(),
    /** false: answer once the run has ended. true by default, as the spec's spawn. */
    background: z.boolean().optional(),
    timeoutSecs: ShellRequest.shape.timeout_secs,
    maxOutputBytes: ShellRequest.shape.max_output_bytes,
    watch: ShellRequest.shape.watch,
    cwd: ShellRequest.shape.cwd,
  })
  .strict();
export type SpawnRequest = z.infer<typeof SpawnRequest>;

export const PollResult = z.object({
  status: RunStatus,
  exitCode: z.number().int().nullable(),
  /** Exactly the items after sinceSeq, up to a page. */
  items: z.array(RunItem),
  nextSeq: z.number().int(),
  /** More items exist after this page: poll again with sinceSeq = nextSeq. */
  more: z.boolean(),
});
export type PollResult = z.infer<typeof PollResult>;

/** A watcher match waiting for the session's agent (delivered on its next turn) and shown to the user. */
export const BacklogMessage = z.object({
  id: z.number().int(),
  session_id: SessionId,
  run_id: ExecRunId,
  event: z.string(),
  text: z.string(),
  ts: z.number().int(),
  delivered: z.boolean(),
});
export type BacklogMessage = z.infer<typeof BacklogMessage>;

/** What the native sandbox enforces on this machine, one sentence per limit, for the Runs panel. */
export const SandboxReport = z.object({
  /** false: agents' commands cannot run here (the sandbox fails closed); `problem` says why and what to do. */
  usable: z.boolean(),
  problem: z.object({ message: z.string(), hint: z.string() }).nullable(),
  items: z.array(z.object({ id: z.string(), enforced: z.boolean(), via: z.string().nullable(), sentence: z.string() })),
});
export type SandboxReport = z.infer<typeof SandboxReport>;

export const execContract = {
  /**
   * The shell tool with the spec's multiplexed JSON, as `omni shell` sends it (agents reach the same code through the
   * agent runtime). The UI uses the calls below, one per operation.
   */
  'exec.shell': call(ShellRequest, ShellResult),
  /** Starts a command as the user in an open session; answers at once unless `background` is false. */
  'exec.spawn': call(SpawnRequest, z.object({ runId: ExecRunId, status: RunStatus })),
  'exec.poll': call(z.object({ runId: ExecRunId, sinceSeq: ShellRequest.shape.since_seq }).strict(), PollResult),
  /** Stops the run's whole process tree. */
  'exec.kill': call(z.object({ runId: ExecRunId }).strict(), z.object({ status: RunStatus })),
  /** Types into a run: text and named keys (Enter, Tab, Escape, Up, C-c, ...), in order; answers the input item's seq. */
  'exec.sendKeys': call(z.object({ runId: ExecRunId, keys: ShellRequest.shape.keys.unwrap() }).strict(), z.object({ seq: z.number().int() })),
  'exec.runs': call(z.object({ sessionId: SessionId }), z.array(Run)),
  'exec.backlog': call(z.object({ sessionId: SessionId }), z.array(BacklogMessage)),
  /** Which isolation and limits agents' commands get on this machine. */
  'exec.sandbox': call(z.object({}), SandboxReport),
  /** The session's runs, live (status, exit, output size). */
  'exec.watchRuns': liveList(z.object({ sessionId: SessionId }), Run, (run) => run.run_id),
  /** A run's items from since_seq (replay), then live ones until the run ends; credit counts characters. */
  'exec.items': stream(
    z.object({ runId: ExecRunId, sinceSeq: z.number().int().min(0).optional() }),
    RunItem,
    (item) => Math.max(1, item.data.length),
  ),
};
