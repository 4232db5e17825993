import { readdirSync, readFileSync } from 'node:fs';

/** One process as /proc/<pid>/stat tells it: its parent, process group, session and state letter (R, S, Z, ...). */
export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  state: string;
}

/** Every process of the machine from /proc (Linux; empty elsewhere). Processes that end while it reads are left out. */
export function readProcTable(): ProcEntry[] {
  if (process.platform !== 'linux') return [];
  const table: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name sits in parentheses and may itself contain spaces or parentheses: split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.push({ pid: Number(name), state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]) });
  }
  return table;
}

/** Adds to `members` every descendant of a member, however deep, including ones that left its group or session. */
export function addDescendants(table: readonly ProcEntry[], members: Set<number>): void {
  for (let grew = true; grew; ) {
    grew = false;
    for (const entry of table) {
      if (!members.has(entry.pid) && members.has(entry.ppid)) {
        members.add(entry.pid);
        grew = true;
      }
    }
  }
}

/** Sends a signal to a process or (negative id) a process group that may already be gone. */
export function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** True while the process exists (a zombie still counts until it is reaped); a process of another user counts too. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
