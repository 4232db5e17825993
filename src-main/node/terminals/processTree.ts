import { addDescendants, isAlive, readProcTable, signalQuietly as signal, type ProcEntry } from '../base/processTable';

/**
 * Every process that belongs to the tree started at `rootPid`: its session (an interactive shell puts each job
 * in a process group of its own, so killing the shell's group is not enough), its process groups, and all
 * descendants, including ones that left the session (setsid) but are still children of a member.
 */
export function treeMembers(rootPid: number): number[] {
  if (process.platform !== 'linux') return [rootPid];
  return [...membersIn(readProcTable(), rootPid)];
}

function membersIn(table: ProcEntry[], rootPid: number): Set<number> {
  const members = new Set<number>([rootPid]);
  for (const p of table) if (p.sid === rootPid || p.pgid === rootPid) members.add(p.pid);
  addDescendants(table, members);
  return members;
}

/** Whether any member (or any of `also`) still runs: a zombie has exited and only waits for its parent to reap it. */
function anyRunning(rootPid: number, also: number[]): boolean {
  if (process.platform !== 'linux') return [rootPid, ...also].some(isAlive);
  const table = readProcTable();
  const members = membersIn(table, rootPid);
  for (const pid of also) members.add(pid);
  return table.some((p) => members.has(p.pid) && p.state !== 'Z');
}

/** How long a tree gets between SIGHUP and SIGKILL unless its owner says otherwise. */
const HANGUP_GRACE_MS = 500;

/**
 * Ends the whole tree: SIGHUP first (what closing a terminal means to a shell and its jobs), then SIGKILL to every
 * member still alive after `graceMs`, or at once when none is left before then. Resolves once the signals are sent.
 */
export async function killTree(rootPid: number, graceMs = HANGUP_GRACE_MS): Promise<void> {
  const first = treeMembers(rootPid);
  signal(-rootPid, 'SIGHUP');
  for (const pid of first) signal(pid, 'SIGHUP');
  const graceEnds = Date.now() + graceMs;
  while (Date.now() < graceEnds && anyRunning(rootPid, first)) await new Promise((resolve) => setTimeout(resolve, 50));
  const survivors = new Set([...first, ...treeMembers(rootPid)].filter(isAlive));
  signal(-rootPid, 'SIGKILL');
  for (const pid of survivors) signal(pid, 'SIGKILL');
}
