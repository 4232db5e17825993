import { RpcError } from '../../../src-preload/contract/errors';
import type { BacklogMessage, Run, RunItem, ShellRequest, ShellResult } from '../../../src-preload/contract/exec';
import type { Disposable } from '../../../src-preload/rpc';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { plainLauncher, type Launcher } from './launcher';

/** Who asks: the user at the UI or an agent, in which session, with which workspace as the root of cwd. */
export interface ShellCaller {
  /** 'user' or the agent's id. */
  actor: string;
  /** The caller's session (an agent's); runs of other sessions are not visible to it. Absent for the user. */
  sessionId?: string;
  /** The session's workspace: a run's cwd resolves inside it. */
  workspace: string;
}

export interface ExecServiceOptions {
  /** Wraps each run's command (the native sandbox); plain spawn by default. */
  launcher?: Launcher;
  /** Runs executing at once across all sessions (runs of one session always execute one at a time). */
  concurrency?: number;
  /** Attempts a run gets when the host stops under it, before it is failed. */
  maxAttempts?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

/**
 * The `shell` tool (spec/shell-exec-actions.md) and what the UI reads of runs: the facade the host wires.
 * Work in progress: the interface is final, the implementation lands behind it.
 */
export class ExecService implements Disposable {
  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly options: ExecServiceOptions = {},
  ) {
    void this.db;
    void this.ledger;
    void (this.options.launcher ?? plainLauncher);
  }

  /** Recovers runs a previous host left running, then starts the worker. Call once. */
  async start(): Promise<void> {}

  /** The shell tool: spawn / poll / kill / send_keys, or the legacy one-shot when `action` is omitted. */
  async shell(request: ShellRequest, caller: ShellCaller): Promise<ShellResult> {
    void request;
    void caller;
    throw new RpcError('UNAVAILABLE', 'the shell tool is not ready yet');
  }

  /** The session's runs, newest first. */
  listRuns(sessionId: string): Run[] {
    void sessionId;
    return [];
  }

  /** The run's items after `sinceSeq` (replay), then live ones as they are written. Returns the unsubscribe. */
  subscribeItems(runId: string, sinceSeq: number, listener: (item: RunItem) => void): () => void {
    void runId;
    void sinceSeq;
    void listener;
    return () => undefined;
  }

  /** Every change of a run of the session (queued, running, exited, output size...). Returns the unsubscribe. */
  subscribeRuns(sessionId: string, listener: (run: Run) => void): () => void {
    void sessionId;
    void listener;
    return () => undefined;
  }

  /** The session's backlog (watcher events), oldest first, delivered ones included. */
  backlog(sessionId: string): BacklogMessage[] {
    void sessionId;
    return [];
  }

  /** The undelivered backlog of the session, marked delivered: what its agent gets on its next turn. */
  takeBacklog(sessionId: string): BacklogMessage[] {
    void sessionId;
    return [];
  }

  /**
   * Stops the worker. Running processes are ended (the whole tree, so nothing outlives the host) and their output
   * flushed; their runs stay `running` in the database, so the next start recovers them like after a crash.
   */
  async dispose(): Promise<void> {}
}
