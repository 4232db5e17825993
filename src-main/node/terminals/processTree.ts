import { addDescendants, isAlive, readProcTable, signalQuietly as signal } from '../base/processTable';

/**
 * Every process that belongs to the tree started at `rootPid`: its session (an interactive shell puts each job
 * in a process group of its own, so killing the shell's group is not enough), its process groups, and all
 * descendants, including ones that left the session (setsid) but are still children of a member.
 */
export function treeMembers(rootPid: number): number[] {
  if (process.platform !== 'linux') return [rootPid];
  const table = readProcTable();
  const members = new Set<number>([rootPid]);
  for (const p of table) if (p.sid === rootPid || p.pgid === rootPid) members.add(p.pid);
  addDescendants(table, members);
  return [...members];
}

/**
 * Ends the whole tree: SIGHUP first (what closing a terminal means to a shell and its jobs), then SIGKILL to every
 * member still alive after `graceMs`. Resolves once the signals are sent.
 */
export async function killTree(rootPid: number, graceMs = 500): Promise<void> {
  const first = treeMembers(rootPid);
  signal(-rootPid, 'SIGHUP');
  for (const pid of first) signal(pid, 'SIGHUP');
  await new Promise((resolve) => setTimeout(resolve, graceMs));
  const survivors = new Set([...first, ...treeMembers(rootPid)].filter(isAlive));
  signal(-rootPid, 'SIGKILL');
  for (const pid of survivors) signal(pid, 'SIGKILL');
}
