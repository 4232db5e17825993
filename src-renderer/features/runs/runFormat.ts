import type { Run, RunStatus } from '../../../src-preload/contract';

/** A run that can still change: the Runs panel ticks its duration, the card offers Kill. */
export function isLive(status: RunStatus): boolean {
  return status === 'queued' || status === 'running';
}

/** "850 ms", "4.2 s", "12 s", "3 min 05 s", "2 h 07 min": precise while short, coarse once long. */
export function formatDuration(ms: number): string {
  const clamped = Math.max(0, Math.round(ms));
  if (clamped < 1000) return `${clamped} ms`;
  if (clamped < 10_000) return `${(Math.floor(clamped / 100) / 10).toFixed(1)} s`;
  const seconds = Math.floor(clamped / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/**
 * How long the run has taken: start to end once it has ended, start to `now` while it runs, and for a queued run the
 * time it has waited (from creation). Null when there is nothing to measure (a run that ended before it started).
 */
export function runDurationMs(run: Pick<Run, 'status' | 'created_at' | 'started_at' | 'ended_at'>, now: number): number | null {
  if (run.status === 'queued') return now - run.created_at;
  if (run.started_at === null) return null;
  if (run.ended_at !== null) return run.ended_at - run.started_at;
  return run.status === 'running' ? now - run.started_at : null;
}

/** The duration as shown: "waiting 3.0 s" for a queued run (runs of a session take turns), null when there is none. */
export function durationText(run: Pick<Run, 'status' | 'created_at' | 'started_at' | 'ended_at'>, now: number): string | null {
  const ms = runDurationMs(run, now);
  if (ms === null) return null;
  return run.status === 'queued' ? `waiting ${formatDuration(ms)}` : formatDuration(ms);
}

/** The status as a user reads it: "exited 0", "killed (SIGTERM)", "timed out", "failed". */
export function statusLabel(run: Pick<Run, 'status' | 'exit_code' | 'signal'>): string {
  switch (run.status) {
    case 'exited':
      return run.exit_code === null ? 'exited' : `exited ${run.exit_code}`;
    case 'killed':
      return run.signal ? `killed (${run.signal})` : 'killed';
    case 'timed_out':
      return 'timed out';
    default:
      return run.status;
  }
}

/** Whether the outcome deserves attention: a non-zero exit, a kill by the host, a failure. */
export function isBadOutcome(run: Pick<Run, 'status' | 'exit_code'>): boolean {
  if (run.status === 'exited') return run.exit_code !== null && run.exit_code !== 0;
  return run.status === 'timed_out' || run.status === 'failed' || run.status === 'interrupted';
}

/** A shell-like rendering of argv: `sh -c '…'` shows as the command line the user typed. */
export function commandLine(argv: readonly string[]): string {
  if (argv.length === 3 && (argv[0] === '/bin/sh' || argv[0] === 'sh') && argv[1] === '-c') return argv[2];
  return argv.map(quoteArg).join(' ');
}

function quoteArg(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Who started the run: "you", or "agent <id>" (the host records agents as "agent:<id>"). */
export function actorLabel(actor: string): string {
  if (actor === 'user') return 'you';
  return `agent ${actor.startsWith('agent:') ? actor.slice('agent:'.length) : actor}`;
}

/** Attempt 0 is a run that never started; 1 its first start; more means the host restarted under it. */
export function wasRecovered(run: Pick<Run, 'attempt'>): boolean {
  return run.attempt > 1;
}

/**
 * The outcome chip's kind for a process run (the colours and icons of ui/outcome/outcomeChip.css): a clean exit is
 * completed, a non-zero exit or a failure failed, a kill cancelled; the words stay statusLabel's.
 */
export function execOutcomeKind(run: Pick<Run, 'status' | 'exit_code'>): 'live' | 'completed' | 'failed' | 'cancelled' | 'timed-out' | 'interrupted' {
  switch (run.status) {
    case 'queued':
    case 'running':
      return 'live';
    case 'exited':
      return run.exit_code === 0 ? 'completed' : 'failed';
    case 'killed':
      return 'cancelled';
    case 'timed_out':
      return 'timed-out';
    case 'interrupted':
      return 'interrupted';
    case 'failed':
      return 'failed';
  }
}
