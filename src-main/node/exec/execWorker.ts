import { DomainError } from '../base/domainError';
import { Emitter, type Disposable } from '../../../src-preload/rpc';
import type { TurnHandle } from '../changes/turnRecorder';
import type { Ledger } from '../ledger/ledger';
import type { ExecStore, RunEnd, StoredRun } from './execStore';
import type { Launcher, PreparedLaunch } from './launcher';
import type { WatchMatch } from './outputWatcher';
import { RunAttempt, type AttemptEnd } from './runAttempt';
import { runEnvironment } from './runEnvironment';
import type { RunItemWriter } from './runItemWriter';
import { recoverRuns, type RecoveredRun } from './runRecovery';

export interface ExecWorkerOptions {
  store: ExecStore;
  items: RunItemWriter;
  ledger: Ledger;
  launcher: Launcher;
  /** Runs executing at once, across sessions. */
  concurrency: number;
  now: () => number;
  onError: (error: unknown) => void;
  /** A watcher matched (the service queues the backlog message). */
  onMatch: (run: StoredRun, match: WatchMatch) => void;
  /**
   * Records the run as a turn of the session's changes (a snapshot before it starts, one after it ends, however it
   * ends); null for a run that is not recorded (the user's own). Never rejects (TurnRecorder).
   */
  recordTurn?: (run: StoredRun) => Promise<TurnHandle> | null;
}

interface ActiveRun {
  run: StoredRun;
  attempt: RunAttempt | undefined;
  done: Promise<void>;
  /** A kill that came while the launcher was still preparing: applied as soon as the process exists. */
  killedBy?: string;
}

/** How long `kill` waits for the run to end before answering with its status as it stands. */
const KILL_ANSWER_WAIT_MS = 1500;

/**
 * Executes queued runs from the database (spec: "the worker claims queued runs from persisted storage").
 * One run at a time per session, in the order they were queued; up to `concurrency` sessions at once, taken in
 * turn so a session with a long queue does not starve the others. `nudge(sessionId)` tells it a session has new
 * work; it finds the session's next run with one index seek, so a claim costs the same with 10 or 10 million runs.
 */
export class ExecWorker implements Disposable {
  private readonly changed = new Emitter<string>();
  /** A run's status, pid or sandbox changed (its id). */
  readonly onDidChangeRun = this.changed.event;
  private readonly active = new Map<string, ActiveRun>();
  private readonly busySessions = new Set<string>();
  /** Sessions that may have queued runs, longest waiting first. */
  private readonly waiting = new Set<string>();
  private pumpScheduled = false;
  private running = false;
  private stopping = false;

  constructor(private readonly options: ExecWorkerOptions) {}

  /** Recovers what a previous host left running, then starts claiming. */
  async start(): Promise<RecoveredRun[]> {
    const { store, items, ledger, now } = this.options;
    const recovered = await recoverRuns(store, items, ledger, now);
    for (const run of recovered) this.changed.fire(run.runId);
    this.running = true;
    for (const sessionId of store.queuedSessions()) this.waiting.add(sessionId);
    this.schedule();
    return recovered;
  }

  nudge(sessionId: string): void {
    this.waiting.add(sessionId);
    this.schedule();
  }

  private schedule(): void {
    if (this.pumpScheduled || !this.running || this.stopping) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    const { store, now } = this.options;
    for (const sessionId of this.waiting) {
      if (this.active.size >= this.options.concurrency || this.stopping) return;
      this.waiting.delete(sessionId);
      // A busy session is looked at again when its run ends.
      if (this.busySessions.has(sessionId)) continue;
      const runId = store.nextQueued(sessionId);
      if (!runId) continue;
      if (!store.claim(runId, now())) {
        this.waiting.add(sessionId);
        continue;
      }
      this.busySessions.add(sessionId);
      const active: ActiveRun = { run: store.require(runId), attempt: undefined, done: Promise.resolve() };
      this.active.set(runId, active);
      active.done = this.executeRecorded(active)
        // execute reports its own failures on the run; this is for one it could not even record (a full disk).
        .catch((error: unknown) => this.options.onError(error))
        .finally(() => {
          this.active.delete(runId);
          this.busySessions.delete(sessionId);
          this.waiting.add(sessionId);
          this.schedule();
        });
    }
  }

  /** The run between the snapshots of its turn: the one before is taken before the process starts. */
  private async executeRecorded(active: ActiveRun): Promise<void> {
    const turn = await this.options.recordTurn?.(active.run);
    try {
      await this.execute(active);
    } finally {
      await turn?.end();
    }
  }

  private async execute(active: ActiveRun): Promise<void> {
    const { items, ledger, launcher, store } = this.options;
    const run = active.run;
    this.changed.fire(run.run_id);
    const command = store.launchCommand(run);
    if (!command) {
      this.finish(run, {
        status: 'failed',
        exitCode: null,
        signal: null,
        reason: 'its command held a secret, which is stored only as its marker, and the host that queued it has stopped: spawn it again',
      });
      return;
    }
    let launch: PreparedLaunch;
    try {
      launch = await launcher({
        runId: run.run_id,
        sessionId: run.session_id,
        actor: run.actor,
        attempt: run.attempt,
        argv: command.argv,
        cwd: command.cwd,
        env: runEnvironment(run.run_id, run.pty),
        pty: run.pty,
        timeoutSecs: run.timeout_secs,
      });
    } catch (error) {
      this.finish(run, { status: 'failed', exitCode: null, signal: null, reason: `the sandbox could not prepare the run: ${(error as Error).message}` });
      return;
    }
    try {
      ledger.append({
        type: 'exec.spawn',
        actor: run.actor,
        sessionId: run.session_id,
        payload: { run_id: run.run_id, argv: run.argv, cwd: run.cwd, pty: run.pty, background: run.background, attempt: run.attempt, sandbox: [...launch.enforced] },
      });
      const attempt = new RunAttempt(
        {
          runId: run.run_id,
          pty: run.pty,
          stdin: run.background,
          timeoutSecs: run.timeout_secs,
          maxOutputBytes: run.max_output_bytes,
          watch: run.watch,
        },
        launch,
        items,
        (match) => this.options.onMatch(run, match),
      );
      active.attempt = attempt;
      if (active.killedBy !== undefined) void attempt.kill(active.killedBy);
      else if (this.stopping) void attempt.interrupt();
      // Written at once (not batched): a host that dies from here on leaves the group to check at recovery.
      store.recordLaunch(run.run_id, attempt.pid, launch.enforced);
      this.changed.fire(run.run_id);
      if (attempt.pid !== null) await launch.afterSpawn?.(attempt.pid);
      const end = await attempt.ended;
      if (end.status === 'interrupted') {
        await launch.onFailure?.();
        items.release(run.run_id);
        ledger.append({ type: 'exec.end', actor: 'host', sessionId: run.session_id, payload: { run_id: run.run_id, attempt: run.attempt, status: 'interrupted' } });
        return;
      }
      this.finish(run, await this.settle(run, end, launch));
    } catch (error) {
      this.options.onError(error);
      this.finish(run, { status: 'failed', exitCode: null, signal: null, reason: `the host failed running it: ${(error as Error).message}` });
    } finally {
      launch.dispose?.();
    }
  }

  /**
   * Staged writes are committed only when the command succeeded; a failed commit fails the run. A run that filled
   * its staged-writes limit fails with a `disk_quota` event whatever its exit code (the sandbox ended it; or it
   * ignored ENOSPC and exited 0 with a half-written file), and its writes are dropped.
   */
  private async settle(run: StoredRun, end: AttemptEnd, launch: PreparedLaunch): Promise<Omit<RunEnd, 'endedAt'>> {
    const quota = end.status === 'exited' ? (launch.diskQuotaHit?.() ?? null) : null;
    if (quota) {
      this.options.items.append(run.run_id, 'event', 'disk_quota', { limit_bytes: quota.limitBytes, message: quota.message });
      await launch.onFailure?.();
      return { status: 'failed', exitCode: end.exitCode, signal: end.signal, reason: quota.message };
    }
    // A sandbox limit (memory, processes) explains an exit better than the bare signal does.
    const limit = launch.limitHit?.() ?? null;
    const result = { status: end.status as RunEnd['status'], exitCode: end.exitCode, signal: end.signal, reason: end.reason ?? limit };
    if (end.status === 'exited' && end.exitCode === 0) {
      try {
        await launch.onSuccess?.();
      } catch (error) {
        return { ...result, status: 'failed', reason: `the run's writes could not be committed: ${(error as Error).message}` };
      }
    } else {
      await launch.onFailure?.();
    }
    return result;
  }

  /** Writes the exit item and the run's end in one transaction, then the ledger entry. */
  private finish(run: StoredRun, end: Omit<RunEnd, 'endedAt'>): void {
    const { items, store, ledger, now } = this.options;
    items.endOutput(run.run_id);
    store.forgetCommand(run.run_id);
    items.append(run.run_id, 'event', 'exit', { status: end.status, exit_code: end.exitCode, signal: end.signal, ...(end.reason ? { reason: end.reason } : {}) });
    items.flush(() => store.end(run.run_id, { ...end, endedAt: now() }));
    items.release(run.run_id);
    const stored = store.require(run.run_id);
    ledger.append({
      type: 'exec.end',
      actor: 'host',
      sessionId: run.session_id,
      payload: {
        run_id: run.run_id,
        attempt: run.attempt,
        status: end.status,
        exit_code: end.exitCode,
        signal: end.signal,
        reason: end.reason,
        output_bytes: stored.output_bytes,
        truncated: stored.truncated,
        duration_ms: (stored.ended_at ?? 0) - (stored.started_at ?? 0),
      },
    });
    this.changed.fire(run.run_id);
  }

  /** Stops a run: a queued one never starts; a running one loses every process. Answers with the run as it stands. */
  async kill(runId: string, actor: string): Promise<StoredRun> {
    const { store, items, ledger, now } = this.options;
    const run = store.require(runId);
    if (run.status === 'queued') {
      const reason = `killed by ${actor} before it started`;
      store.forgetCommand(runId);
      items.append(runId, 'event', 'killed', { by: actor });
      items.append(runId, 'event', 'exit', { status: 'killed', exit_code: null, signal: null, reason });
      const ended = { ended: false };
      items.flush(() => (ended.ended = store.end(runId, { status: 'killed', exitCode: null, signal: null, reason, endedAt: now() })));
      items.release(runId);
      ledger.append({ type: 'exec.kill', actor, sessionId: run.session_id, payload: { run_id: runId, status: 'queued' } });
      this.changed.fire(runId);
      return store.require(runId);
    }
    const active = this.active.get(runId);
    if (run.status !== 'running' || !active) return run;
    ledger.append({ type: 'exec.kill', actor, sessionId: run.session_id, payload: { run_id: runId, status: 'running', attempt: run.attempt } });
    if (active.attempt) void active.attempt.kill(actor);
    else active.killedBy = actor;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([active.done, new Promise((resolve) => (timer = setTimeout(resolve, KILL_ANSWER_WAIT_MS)))]);
    clearTimeout(timer);
    return store.require(runId);
  }

  /** Writes keys to a running run; returns the seq of the input item. */
  sendKeys(runId: string, text: string, keys: readonly string[]): number {
    const run = this.options.store.require(runId);
    const attempt = this.active.get(runId)?.attempt;
    if (run.status === 'queued' || (run.status === 'running' && !attempt)) {
      throw new DomainError('state', `${runId} has not started yet (runs of a session execute one at a time); poll it until it is running, then send the keys`);
    }
    if (!attempt) {
      throw new DomainError('state', `${runId} has ended (${run.status}${run.exit_code !== null ? `, exit code ${run.exit_code}` : ''}): there is nothing to send keys to`);
    }
    try {
      return attempt.sendKeys(text, keys);
    } catch (error) {
      throw new DomainError('state', `${runId} cannot take keys: ${(error as Error).message}`);
    }
  }

  /**
   * Stops claiming and ends every running run's processes (nothing of a run outlives the host); those runs stay
   * `running` in the database and are recovered by the next start, as after a crash.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    const all = [...this.active.values()];
    for (const active of all) void active.attempt?.interrupt();
    await Promise.all(all.map((active) => active.done));
  }

  dispose(): void {
    void this.stop();
    this.changed.dispose();
  }
}
