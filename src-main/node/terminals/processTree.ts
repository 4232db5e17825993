import { readdirSync, readFileSync } from 'node:fs';

interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
}

/** Reads pid, parent, process group and session of every process from /proc (Linux). */
function readProcTable(): ProcInfo[] {
  const table: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name sits in parentheses and may itself contain spaces or parentheses: split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]) });
    } catch {
      // The process ended while we were reading: nothing to kill.
    }
  }
  return table;
}

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
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of table) {
      if (!members.has(p.pid) && members.has(p.ppid)) {
        members.add(p.pid);
        grew = true;
      }
    }
  }
  return [...members];
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

/** True while the process exists (a zombie still counts until it is reaped). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
