import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds something (a lock, a checkpoint's resume): enough to tell later whether that process is gone. */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** The process's start time in clock ticks since boot (Linux /proc), so a reused pid is not taken for it. */
  pid_start?: string;
}

/** Field 22 of /proc/<pid>/stat, and the process state (field 3); null where /proc is not there or the pid is not. */
function procStat(pid: number): { start: string; state: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], start: fields[19] };
  } catch {
    return null;
  }
}

let self: ProcessIdentity | undefined;

export function currentProcess(): ProcessIdentity {
  if (!self) {
    const start = procStat(process.pid)?.start;
    self = { pid: process.pid, host: hostname(), ...(start ? { pid_start: start } : {}) };
  }
  return self;
}

/**
 * True when the process is certainly gone: it ran on this machine and its pid is free, a zombie, or now another
 * process (a different start time). A process on another machine is never known to be gone (callers fall back on age).
 */
export function isProcessGone(holder: ProcessIdentity): boolean {
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return holder.pid_start !== undefined && holder.pid_start !== currentProcess().pid_start;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    // EPERM: it exists, owned by someone else.
  }
  const stat = procStat(holder.pid);
  if (!stat) return false;
  if (stat.state === 'Z' || stat.state === 'X') return true;
  return holder.pid_start !== undefined && stat.start !== holder.pid_start;
}
