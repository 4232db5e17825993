import { DomainError } from '../base/domainError';
import type { BacklogMessage, Run, RunItem, ShellRequest, ShellResult } from '../../../src-preload/contract/exec';
import { Emitter, type Disposable } from '../../../src-preload/rpc';
import { newId } from '../base/ids';
import type { TurnHandle } from '../changes/turnRecorder';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { SecretScrubber } from '../vault/secretScrubber';
import { BacklogStore } from './backlogStore';
import { ExecStore, publicRun, type StoredRun } from './execStore';
import { ExecWorker } from './execWorker';
import { plainLauncher, type Launcher } from './launcher';
import { keysToText } from './namedKeys';
import { compileWatchers, type WatchMatch } from './outputWatcher';
import { RunItemFeed, type RunItemSink } from './runItemFeed';
import { RunItemWriter } from './runItemWriter';
import type { RecoveredRun } from './runRecovery';
import { commandArgv, parseShellRequest, resolveRunCwd } from './shellRequestRules';

/** Who asks: the user at the UI or an agent, in which session, with which workspace as the root of cwd. */
export interface ShellCaller {
  /** 'user' or the agent's id. */
  actor: string;
  /** The caller's session (an agent's): it acts only on its session's runs. Absent for the user. */
  sessionId?: string;
  /** The session's workspace: a run's cwd resolves inside it. */
  workspace: string;
}

export interface ExecServiceOptions {
  /** Wraps each run's command (the native sandbox); plain spawn by default. */
  launcher?: Launcher;
  /** Runs executing at once across all sessions (runs of one session always execute one at a time). Default 8. */
  concurrency?: number;
  /** Attempts a run gets when the host stops under it, before it is failed. Default 3. */
  maxAttempts?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
  /**
   * Takes secrets out of everything of a run before it is stored or read back (argv, cwd, output, events, backlog):
   * the host's, which knows the vault's registered values. Default: token shapes only.
   */
  scrubber?: SecretScrubber;
  /** See ExecWorkerOptions.recordTurn. */
  recordTurn?: (run: StoredRun) => Promise<TurnHandle> | null;
}

/** A poll page holds at most this many items and (past its first item) this many characters. */
export const POLL_MAX_ITEMS = 1000;
export const POLL_MAX_CHARS = 1024 * 1024;
/** A one-shot run (no action) collects its output in memory: capped here unless max_output_bytes says otherwise. */
export const ONE_SHOT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** Runs listed per session by default. */
export const LIST_RUNS_LIMIT = 1000;
/** How often the output size of running runs is reported to run listeners. */
const OUTPUT_SIZE_REPORT_MS = 250;
const ENDED = new Set(['exited', 'killed', 'timed_out', 'failed', 'interrupted']);

function pastTheEnd(sinceSeq: number, run: StoredRun): DomainError {
  return new DomainError('invalid_input',
    `since_seq ${sinceSeq} is past the last item ${run.last_seq} of ${run.run_id}; poll with since_seq ≤ ${run.last_seq}`,
    { issues: [{ path: 'since_seq', message: `at most ${run.last_seq}` }] },
  );
}

/**
 * The `shell` tool (spec/shell-exec-actions.md) and what the UI reads of runs: the facade the host wires.
 * spawn queues a run and returns; the worker (execWorker.ts) executes queued runs, one at a time per session;
 * poll reads what is stored. Everything a run does is in the database, so a restarted host recovers it.
 */
export class ExecService implements Disposable {
  private readonly store: ExecStore;
  private readonly items: RunItemWriter;
  private readonly backlogStore: BacklogStore;
  private readonly worker: ExecWorker;
  private readonly now: () => number;
  private readonly maxAttempts: number;
  private readonly runChanged = new Emitter<StoredRun>();
  private readonly backlogQueued = new Emitter<BacklogMessage>();
  private runListeners = 0;
  private readonly growing = new Set<string>();
  private sizeTimer: NodeJS.Timeout | undefined;
  private disposed: Promise<void> | undefined;

  constructor(
    db: Database,
    ledger: Ledger,
    options: ExecServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxAttempts = options.maxAttempts ?? 3;
    const onError = options.onError ?? ((error: unknown) => console.error('[exec]', error));
    const scrubber = options.scrubber ?? new SecretScrubber();
    this.store = new ExecStore(db, scrubber);
    this.items = new RunItemWriter(db, this.now, onError, scrubber);
    this.backlogStore = new BacklogStore(db);
    this.worker = new ExecWorker({
      store: this.store,
      items: this.items,
      ledger,
      launcher: options.launcher ?? plainLauncher,
      concurrency: options.concurrency ?? 8,
      now: this.now,
      onError,
      onMatch: (run, match) => this.queueBacklog(run, match),
      recordTurn: options.recordTurn,
    });
    this.worker.onDidChangeRun((runId) => this.reportRun(runId));
    this.items.onDidAppend(({ runId, item }) => {
      if (this.runListeners === 0 || item.kind === 'event' || item.kind === 'input') return;
      this.growing.add(runId);
      this.sizeTimer ??= setTimeout(() => this.reportGrowth(), OUTPUT_SIZE_REPORT_MS);
    });
  }

  /** Recovers runs a previous host left running, then starts the worker. Call once. */
  start(): Promise<RecoveredRun[]> {
    return this.worker.start();
  }

  /** The shell tool: spawn / poll / kill / send_keys, or the legacy one-shot when `action` is omitted. */
  async shell(input: ShellRequest, caller: ShellCaller): Promise<ShellResult> {
    const request = parseShellRequest(input);
    switch (request.action) {
      case undefined: {
        const run = this.queue(request, caller, false);
        const ended = await this.whenEnded(run.run_id);
        return { action: 'run', run_id: ended.run_id, status: ended.status, exit_code: ended.exit_code, ...this.collectOutput(ended), truncated: ended.truncated };
      }
      case 'spawn': {
        const run = this.queue(request, caller, request.background ?? true);
        // background: false waits for the end (the spec's default is true for spawn).
        const status = run.background ? run.status : (await this.whenEnded(run.run_id)).status;
        return { action: 'spawn', run_id: run.run_id, status };
      }
      case 'poll':
        return this.poll(this.visibleRun(request.run_id!, caller, request.session_id), request.since_seq ?? 0);
      case 'kill': {
        const run = this.visibleRun(request.run_id!, caller, request.session_id);
        const after = await this.worker.kill(run.run_id, caller.actor);
        return { action: 'kill', run_id: after.run_id, status: after.status };
      }
      case 'send_keys': {
        const run = this.visibleRun(request.run_id!, caller, request.session_id);
        const seq = this.worker.sendKeys(run.run_id, keysToText(request.keys!, run.pty ? 'pty' : 'pipe'), request.keys!);
        return { action: 'send_keys', run_id: run.run_id, seq };
      }
    }
  }

  /** Stores a new queued run and nudges the worker. */
  private queue(request: ShellRequest, caller: ShellCaller, background: boolean): StoredRun {
    const sessionId = this.sessionOf(request.session_id, caller);
    const watch = request.watch ?? [];
    compileWatchers(watch); // refused now, with the reason, rather than when the run starts
    const run = this.store.create({
      runId: newId('run'),
      sessionId,
      actor: caller.actor,
      argv: commandArgv(request.command!),
      cwd: resolveRunCwd(caller.workspace, request.cwd),
      pty: request.pty ?? false,
      background,
      timeoutSecs: request.timeout_secs ?? null,
      maxOutputBytes: request.max_output_bytes ?? (request.action ? null : ONE_SHOT_MAX_OUTPUT_BYTES),
      watch,
      maxAttempts: this.maxAttempts,
      createdAt: this.now(),
    });
    this.reportRun(run.run_id);
    this.worker.nudge(sessionId);
    return run;
  }

  private sessionOf(requested: string | undefined, caller: ShellCaller): string {
    if (requested && caller.sessionId && requested !== caller.sessionId) {
      throw new DomainError('invalid_input', `session_id ${requested} is not the caller's session (${caller.sessionId}): leave it out or give your own`, {
        issues: [{ path: 'session_id', message: 'not the caller session' }],
      });
    }
    const sessionId = requested ?? caller.sessionId;
    if (!sessionId) throw new DomainError('invalid_input', 'session_id: say which session the run belongs to', { issues: [{ path: 'session_id', message: 'required' }] });
    return sessionId;
  }

  /** The run, if the caller may see it: an agent sees its session's runs only (others are "not found", not "denied"). */
  private visibleRun(runId: string, caller: ShellCaller, sessionId: string | undefined): StoredRun {
    const run = this.store.get(runId);
    const scope = caller.sessionId ?? sessionId;
    if (!run || (scope !== undefined && run.session_id !== scope)) {
      throw new DomainError('not_found', `no run ${runId}${scope ? ` in session ${scope}` : ''}: check the run_id that spawn returned`);
    }
    return run;
  }

  private poll(run: StoredRun, sinceSeq: number): ShellResult {
    this.items.flush();
    const current = this.store.require(run.run_id);
    if (sinceSeq > current.last_seq) throw pastTheEnd(sinceSeq, current);
    const items = this.page(run.run_id, sinceSeq);
    const nextSeq = items.length > 0 ? items[items.length - 1].seq : sinceSeq;
    return {
      action: 'poll',
      run_id: run.run_id,
      status: current.status,
      exit_code: current.exit_code,
      items,
      next_seq: nextSeq,
      more: nextSeq < current.last_seq,
    };
  }

  /** Up to POLL_MAX_ITEMS items after sinceSeq, cut at POLL_MAX_CHARS (always at least one). */
  private page(runId: string, sinceSeq: number): RunItem[] {
    const items = this.store.items(runId, sinceSeq, POLL_MAX_ITEMS);
    let chars = 0;
    for (let i = 0; i < items.length; i++) {
      chars += items[i].data.length;
      if (chars > POLL_MAX_CHARS && i > 0) return items.slice(0, i);
    }
    return items;
  }

  private collectOutput(run: StoredRun): { stdout: string; stderr: string } {
    const out: string[] = [];
    const err: string[] = [];
    for (let since = 0; ; ) {
      const items = this.store.items(run.run_id, since, POLL_MAX_ITEMS);
      if (items.length === 0) break;
      for (const item of items) {
        if (item.kind === 'stdout' || item.kind === 'output') out.push(item.data);
        else if (item.kind === 'stderr') err.push(item.data);
      }
      since = items[items.length - 1].seq;
    }
    return { stdout: out.join(''), stderr: err.join('') };
  }

  private whenEnded(runId: string): Promise<StoredRun> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        const run = this.store.require(runId);
        if (!ENDED.has(run.status)) return false;
        resolve(run);
        return true;
      };
      if (check()) return;
      const subscription = this.worker.onDidChangeRun((changed) => {
        if (changed === runId && check()) subscription.dispose();
      });
    });
  }

  /** Ends every run of the session that has not ended (queued ones never start): for closing a session. */
  /** How many of the session's runs are queued or running: what closing it would kill. */
  openRunCount(sessionId: string): number {
    return this.store.list(sessionId, Number.MAX_SAFE_INTEGER).filter((run) => !ENDED.has(run.status)).length;
  }

  async killSessionRuns(sessionId: string, actor: string): Promise<void> {
    const open = this.store.list(sessionId, Number.MAX_SAFE_INTEGER).filter((run) => !ENDED.has(run.status));
    // Queued ones first: none of them can then be claimed when the running one ends.
    open.sort((a, b) => (a.status === 'queued' ? 0 : 1) - (b.status === 'queued' ? 0 : 1));
    await Promise.all(open.map((run) => this.worker.kill(run.run_id, actor)));
  }

  /** The session's runs, newest first (the newest `limit`: a session can hold many thousands). */
  listRuns(sessionId: string, limit = LIST_RUNS_LIMIT): Run[] {
    return this.store.list(sessionId, limit).map(publicRun);
  }

  /** The run's items after `sinceSeq` (replay), then live ones as they are written. Returns the unsubscribe. */
  subscribeItems(runId: string, sinceSeq: number, listener: (item: RunItem) => void): () => void {
    this.store.require(runId);
    // Everything queued is written first; from then on, an item reaches listeners only once committed: no gap, no repeat.
    this.items.flush();
    let last = sinceSeq;
    for (let items = this.store.items(runId, last, POLL_MAX_ITEMS); items.length > 0; items = this.store.items(runId, last, POLL_MAX_ITEMS)) {
      for (const item of items) listener(item);
      last = items[items.length - 1].seq;
    }
    const subscription = this.items.onDidAppend((appended) => {
      if (appended.runId === runId && appended.item.seq > last) {
        last = appended.item.seq;
        listener(appended.item);
      }
    });
    return () => subscription.dispose();
  }

  /**
   * The run's items for a stream reader, at its pace (the bridge's StreamSink fits `sink` as is): replay from
   * `sinceSeq`, then live, pausing while the reader is behind; the sink is ended after the run's exit item.
   */
  attachItems(runId: string, sinceSeq: number, sink: RunItemSink): Disposable {
    this.items.flush();
    const run = this.store.require(runId);
    if (sinceSeq > run.last_seq) throw pastTheEnd(sinceSeq, run);
    return new RunItemFeed(runId, sinceSeq, sink, this.store, this.items);
  }

  /** Every change of a run of the session (queued, running, ended, output size). Returns the unsubscribe. */
  subscribeRuns(sessionId: string, listener: (run: Run) => void): () => void {
    this.runListeners++;
    const subscription = this.runChanged.event((run) => {
      if (run.session_id === sessionId) listener(publicRun(run));
    });
    return () => {
      subscription.dispose();
      this.runListeners--;
    };
  }

  /** Backlog messages as they are queued (for the UI's notices). Returns the unsubscribe. */
  subscribeBacklog(sessionId: string, listener: (message: BacklogMessage) => void): () => void {
    const subscription = this.backlogQueued.event((message) => {
      if (message.session_id === sessionId) listener(message);
    });
    return () => subscription.dispose();
  }

  /** The session's backlog (watcher events), oldest first, delivered ones included. */
  backlog(sessionId: string): BacklogMessage[] {
    return this.backlogStore.list(sessionId);
  }

  /** The undelivered backlog of the session, marked delivered: what its agent gets on its next turn. */
  takeBacklog(sessionId: string): BacklogMessage[] {
    return this.backlogStore.take(sessionId);
  }

  private queueBacklog(run: StoredRun, match: WatchMatch): void {
    const command = run.argv.join(' ');
    // The match was found in scrubbed output and the argv is stored scrubbed; scrubbed again as a whole, since
    // cutting them short could leave a token the scrubber no longer recognises.
    const text = this.items.scrubber.scrubText(
      `${match.event}: watcher ${match.watcher} matched ${JSON.stringify(match.match.slice(0, 200))} in the ${match.stream} of ${run.run_id} (${command.length > 120 ? `${command.slice(0, 117)}...` : command})`,
    );
    this.backlogQueued.fire(this.backlogStore.enqueue(run.session_id, run.run_id, match.event, text, this.now()));
  }

  private reportRun(runId: string): void {
    if (this.runListeners === 0) return;
    const run = this.store.get(runId);
    if (run) this.runChanged.fire(run);
  }

  private reportGrowth(): void {
    this.sizeTimer = undefined;
    const runs = [...this.growing];
    this.growing.clear();
    for (const runId of runs) this.reportRun(runId);
  }

  /**
   * Stops the worker. Running processes are ended (the whole tree, so nothing outlives the host) and their output
   * written; their runs stay `running` in the database, so the next start recovers them like after a crash
   * (a recovery event, then the next attempt). Queued runs stay queued.
   */
  dispose(): Promise<void> {
    this.disposed ??= (async () => {
      await this.worker.stop();
      if (this.sizeTimer) clearTimeout(this.sizeTimer);
      this.worker.dispose();
      this.items.dispose();
      this.runChanged.dispose();
      this.backlogQueued.dispose();
    })();
    return this.disposed;
  }
}
