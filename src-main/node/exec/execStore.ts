import { DomainError } from '../base/domainError';
import type { Run, RunItem, RunStatus, Watcher } from '../../../src-preload/contract/exec';
import type { Database } from '../store/database';
import { SecretScrubber } from '../vault/secretScrubber';

/** A run as the worker needs it: the contract's Run plus what only the host uses. */
export interface StoredRun extends Run {
  watch: Watcher[];
  maxAttempts: number;
  /** The process group of the current (or last) attempt. */
  pgid: number | null;
}

export interface NewRun {
  runId: string;
  sessionId: string;
  actor: string;
  argv: string[];
  cwd: string;
  pty: boolean;
  background: boolean;
  timeoutSecs: number | null;
  maxOutputBytes: number | null;
  watch: Watcher[];
  maxAttempts: number;
  createdAt: number;
}

/** How a run ended (or why it never ran). */
export interface RunEnd {
  status: Exclude<RunStatus, 'queued' | 'running'>;
  exitCode: number | null;
  signal: string | null;
  reason: string | null;
  endedAt: number;
}

interface RunRow {
  run_id: string;
  session_id: string;
  actor: string;
  argv: string;
  cwd: string;
  pty: number;
  background: number;
  status: RunStatus;
  exit_code: number | null;
  signal: string | null;
  reason: string | null;
  timeout_secs: number | null;
  max_output_bytes: number | null;
  watch: string;
  output_bytes: number;
  truncated: number;
  attempt: number;
  max_attempts: number;
  pgid: number | null;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  last_seq: number;
  sandbox: string;
}

interface ItemRow {
  seq: number;
  ts: number;
  kind: RunItem['kind'];
  data: string;
  detail: string | null;
}

const RUN_COLUMNS =
  'run_id, session_id, actor, argv, cwd, pty, background, status, exit_code, signal, reason, timeout_secs, max_output_bytes, watch, ' +
  'output_bytes, truncated, attempt, max_attempts, pgid, created_at, started_at, ended_at, last_seq, sandbox';

function toRun(row: RunRow): StoredRun {
  return {
    run_id: row.run_id,
    session_id: row.session_id,
    actor: row.actor,
    argv: JSON.parse(row.argv) as string[],
    cwd: row.cwd,
    pty: row.pty === 1,
    background: row.background === 1,
    status: row.status,
    exit_code: row.exit_code,
    signal: row.signal,
    reason: row.reason,
    timeout_secs: row.timeout_secs,
    max_output_bytes: row.max_output_bytes,
    output_bytes: row.output_bytes,
    truncated: row.truncated === 1,
    attempt: row.attempt,
    created_at: row.created_at,
    started_at: row.started_at,
    ended_at: row.ended_at,
    last_seq: row.last_seq,
    sandbox: JSON.parse(row.sandbox) as string[],
    watch: JSON.parse(row.watch) as Watcher[],
    maxAttempts: row.max_attempts,
    pgid: row.pgid,
  };
}

/** The public view of a stored run (what crosses the bridge). */
export function publicRun(run: StoredRun): Run {
  const { watch: _watch, maxAttempts: _maxAttempts, pgid: _pgid, ...visible } = run;
  return visible;
}

export function toItem(row: ItemRow): RunItem {
  const item: RunItem = { seq: row.seq, ts: row.ts, kind: row.kind, data: row.data };
  if (row.detail !== null) item.detail = JSON.parse(row.detail) as Record<string, unknown>;
  return item;
}

/** What a run executes: its argv and working directory as given, secrets included. */
export interface RunCommand {
  argv: string[];
  cwd: string;
}

/** What the scrubber leaves where it took a secret out (redactionMarker). */
const MARKER = /\[REDACTED:[a-z-]+\]/;

/**
 * The exec tables (migration 8): runs and their state changes, item reads. Items are written by RunItemWriter,
 * in batches; the run's last_seq and output size change in the same transactions as its items.
 *
 * A run's argv and cwd are stored scrubbed (a token typed into a command is not kept on disk, nor shown by
 * list or poll); the command as given stays in this process's memory until the run ends, and is what executes.
 */
export class ExecStore {
  private readonly insertRun;
  private readonly selectRun;
  private readonly selectSessionRuns;
  private readonly selectNextQueued;
  private readonly selectQueuedSessions;
  private readonly selectRunning;
  private readonly selectQueuedByAgents;
  private readonly claimRun;
  private readonly launchRun;
  private readonly endRun;
  private readonly requeueRun;
  private readonly selectItems;
  /** The commands of runs queued by this process, as given (the table has them scrubbed). */
  private readonly commands = new Map<string, RunCommand>();

  constructor(
    readonly db: Database,
    private readonly scrubber: SecretScrubber = new SecretScrubber(),
  ) {
    this.insertRun = db.prepare(
      `INSERT INTO exec_runs (run_id, session_id, actor, argv, cwd, pty, background, status, timeout_secs, max_output_bytes, watch, max_attempts, created_at)
       VALUES (@runId, @sessionId, @actor, @argv, @cwd, @pty, @background, 'queued', @timeoutSecs, @maxOutputBytes, @watch, @maxAttempts, @createdAt)`,
    );
    this.selectRun = db.prepare<[string], RunRow>(`SELECT ${RUN_COLUMNS} FROM exec_runs WHERE run_id = ?`);
    this.selectSessionRuns = db.prepare<[string, number], RunRow>(`SELECT ${RUN_COLUMNS} FROM exec_runs WHERE session_id = ? ORDER BY ord DESC LIMIT ?`);
    // INDEXED BY: the partial index holds only queued runs, so the claim never walks a session's finished ones.
    this.selectNextQueued = db.prepare<[string], { run_id: string }>(
      `SELECT run_id FROM exec_runs INDEXED BY exec_runs_queued WHERE session_id = ? AND status = 'queued' ORDER BY ord LIMIT 1`,
    );
    this.selectQueuedSessions = db.prepare<[], { session_id: string }>(
      `SELECT session_id, min(ord) AS first FROM exec_runs INDEXED BY exec_runs_queued WHERE status = 'queued' GROUP BY session_id ORDER BY first`,
    );
    this.selectRunning = db.prepare<[], RunRow>(`SELECT ${RUN_COLUMNS} FROM exec_runs WHERE status = 'running' ORDER BY ord`);
    this.selectQueuedByAgents = db.prepare<[], RunRow>(`SELECT ${RUN_COLUMNS} FROM exec_runs WHERE status = 'queued' AND substr(actor, 1, 6) = 'agent:' ORDER BY ord`);
    this.claimRun = db.prepare<[number, string]>(
      `UPDATE exec_runs SET status = 'running', attempt = attempt + 1, started_at = ?, ended_at = NULL, pgid = NULL
       WHERE run_id = ? AND status = 'queued'`,
    );
    this.launchRun = db.prepare<[number | null, string, string]>(`UPDATE exec_runs SET pgid = ?, sandbox = ? WHERE run_id = ?`);
    this.endRun = db.prepare(
      `UPDATE exec_runs SET status = @status, exit_code = @exitCode, signal = @signal, reason = @reason, ended_at = @endedAt
       WHERE run_id = @runId AND status IN ('queued', 'running')`,
    );
    this.requeueRun = db.prepare<[string]>(`UPDATE exec_runs SET status = 'queued', pgid = NULL WHERE run_id = ? AND status = 'running'`);
    this.selectItems = db.prepare<[string, number, number], ItemRow>(
      'SELECT seq, ts, kind, data, detail FROM exec_run_items WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
  }

  create(run: NewRun): StoredRun {
    this.commands.set(run.runId, { argv: run.argv, cwd: run.cwd });
    this.insertRun.run({
      ...run,
      argv: JSON.stringify(run.argv.map((arg) => this.scrubber.scrubText(arg))),
      cwd: this.scrubber.scrubText(run.cwd),
      pty: run.pty ? 1 : 0,
      background: run.background ? 1 : 0,
      watch: JSON.stringify(run.watch),
    });
    return this.require(run.runId);
  }

  /**
   * The command to execute for `run`: as given when this process queued it; else (queued by an earlier host) as
   * stored, unless the scrubber took something out of it, which is then lost (undefined).
   */
  launchCommand(run: StoredRun): RunCommand | undefined {
    const given = this.commands.get(run.run_id);
    if (given) return given;
    if (MARKER.test(run.cwd) || run.argv.some((arg) => MARKER.test(arg))) return undefined;
    return { argv: run.argv, cwd: run.cwd };
  }

  /** The run has ended: its command is no longer needed. */
  forgetCommand(runId: string): void {
    this.commands.delete(runId);
  }

  get(runId: string): StoredRun | undefined {
    const row = this.selectRun.get(runId);
    return row ? toRun(row) : undefined;
  }

  require(runId: string): StoredRun {
    const run = this.get(runId);
    if (!run) throw new DomainError('not_found', `no run ${runId}: check the run_id that spawn returned (runs are listed per session)`);
    return run;
  }

  /** The session's newest runs, newest first. */
  list(sessionId: string, limit: number): StoredRun[] {
    return this.selectSessionRuns.all(sessionId, limit).map(toRun);
  }

  /** Sessions with queued runs, the one waiting longest first. */
  queuedSessions(): string[] {
    return this.selectQueuedSessions.all().map((row) => row.session_id);
  }

  nextQueued(sessionId: string): string | undefined {
    return this.selectNextQueued.get(sessionId)?.run_id;
  }

  /** queued → running, as the next attempt. False if the run is no longer queued (killed meanwhile). */
  claim(runId: string, now: number): boolean {
    return this.claimRun.run(now, runId).changes === 1;
  }

  recordLaunch(runId: string, pgid: number | null, enforced: readonly string[]): void {
    this.launchRun.run(pgid, JSON.stringify(enforced), runId);
  }

  /** Ends a queued or running run; false if it had already ended. */
  end(runId: string, end: RunEnd): boolean {
    return this.endRun.run({ runId, ...end }).changes === 1;
  }

  requeue(runId: string): void {
    this.requeueRun.run(runId);
  }

  running(): StoredRun[] {
    return this.selectRunning.all().map(toRun);
  }

  /** Queued runs an agent asked for (actor `agent:<id>`), oldest first. */
  queuedByAgents(): StoredRun[] {
    return this.selectQueuedByAgents.all().map(toRun);
  }

  items(runId: string, sinceSeq: number, limit: number): RunItem[] {
    return this.selectItems.all(runId, sinceSeq, limit).map(toItem);
  }
}
