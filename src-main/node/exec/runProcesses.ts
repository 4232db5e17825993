import { readFileSync } from 'node:fs';
import { addDescendants, readProcTable, signalQuietly as signal } from '../base/processTable';

/**
 * Every process of a run carries this variable, so the run's processes can be found even after they left its
 * process group and session and were re-parented (a daemon's setsid + double fork). A process that clears its
 * environment and escapes the group loses the mark: the native sandbox's pid namespace is what holds such a one.
 */
export const RUN_MARKER = 'OMNI_RUN_ID';

function hasMarker(pid: number, marker: Buffer): boolean {
  try {
    // Only our own processes' environments are readable: others fail here and are not ours to kill anyway.
    return readFileSync(`/proc/${pid}/environ`).includes(marker);
  } catch {
    return false;
  }
}

/**
 * Whether the process group may be taken as the run's: 'ours' while this host started it; 'if-marked' for a group
 * recorded by an earlier host, whose id may since have been reused by an unrelated process: then the group counts
 * only if one of its members carries the run's mark.
 */
export type GroupTrust = 'ours' | 'if-marked';

/**
 * The live processes of a run (Linux): its process group and session (`pgid`, which is also the session id, as
 * each run starts in a session of its own), every process marked with the run's id, and all their descendants.
 * Zombies are left out: they are already dead, their parent only has to reap them.
 */
export function runProcesses(runId: string, pgid: number | null, group: GroupTrust = 'ours'): number[] {
  if (process.platform !== 'linux') return [];
  const marker = Buffer.from(`${RUN_MARKER}=${runId}\0`);
  const table = readProcTable().filter((entry) => entry.pid !== process.pid && entry.state !== 'Z' && entry.state !== 'X');
  const members = new Set<number>();
  const inGroup: number[] = [];
  let groupMarked = false;
  for (const entry of table) {
    const { pid } = entry;
    const marked = hasMarker(pid, marker);
    if (marked) members.add(pid);
    if (pgid !== null && (entry.pgid === pgid || entry.sid === pgid)) {
      inGroup.push(pid);
      groupMarked ||= marked;
    }
  }
  if (group === 'ours' || groupMarked) for (const pid of inGroup) members.add(pid);
  addDescendants(table, members);
  return [...members];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ends every process of the run: `first` (SIGTERM: a chance to clean up) to all of them, then, after `graceMs` or
 * as soon as they are all gone, SIGKILL sweeps until a sweep finds none. A process forking while it is swept is
 * found by the next sweep (its child inherits the mark and the parent). Resolves once none is left, or after
 * `giveUpMs` with the pids that could not be ended (not ours to kill, say).
 */
export async function killRunProcesses(
  runId: string,
  pgid: number | null,
  options: { first?: NodeJS.Signals; graceMs?: number; giveUpMs?: number; group?: GroupTrust } = {},
): Promise<number[]> {
  const group = options.group ?? 'ours';
  // A group we cannot vouch for is signalled only through its marked members, never as a whole.
  const groupSignal = group === 'ours' ? pgid : null;
  const graceMs = options.graceMs ?? 500;
  const giveUpAt = Date.now() + (options.giveUpMs ?? 10_000);
  if (options.first && options.first !== 'SIGKILL') {
    if (groupSignal !== null) signal(-groupSignal, options.first);
    for (const pid of runProcesses(runId, pgid, group)) signal(pid, options.first);
    const graceEnds = Date.now() + graceMs;
    while (Date.now() < graceEnds && runProcesses(runId, pgid, group).length > 0) await sleep(20);
  }
  for (;;) {
    if (groupSignal !== null) signal(-groupSignal, 'SIGKILL');
    const left = runProcesses(runId, pgid, group);
    if (left.length === 0) return [];
    if (Date.now() > giveUpAt) return left;
    for (const pid of left) signal(pid, 'SIGKILL');
    await sleep(10);
  }
}
