import type { Run, RunStatus } from '../../../src-preload/contract';

const statusRank: Record<RunStatus, number> = {
  queued: 0,
  running: 1,
  exited: 2,
  killed: 2,
  timed_out: 2,
  failed: 2,
  interrupted: 2,
};

/**
 * Whether `incoming` is at least as recent as `known` (same run). The live list (exec.watchRuns) is in order, but its
 * snapshots and a spawn's own listing land on what the store already holds, so a record never replaces a later one.
 * Everything a run does writes an item (output, kill, exit, recovery), so `last_seq` orders most changes; a new
 * attempt, then the status (queued → running → ended), then the output size order the rest.
 */
export function isAtLeastAsRecent(incoming: Run, known: Run): boolean {
  const a = [incoming.last_seq, incoming.attempt, statusRank[incoming.status], incoming.output_bytes];
  const b = [known.last_seq, known.attempt, statusRank[known.status], known.output_bytes];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/** The session's runs with `incoming` merged in, newest first (by creation, then id for runs created together). */
export function mergeRuns(current: readonly Run[], incoming: readonly Run[]): Run[] {
  const byId = new Map(current.map((run) => [run.run_id, run]));
  let changed = false;
  for (const run of incoming) {
    const known = byId.get(run.run_id);
    if (known && !isAtLeastAsRecent(run, known)) continue;
    byId.set(run.run_id, run);
    changed = true;
  }
  if (!changed) return current as Run[];
  return [...byId.values()].sort((x, y) => y.created_at - x.created_at || (x.run_id < y.run_id ? 1 : x.run_id > y.run_id ? -1 : 0));
}
