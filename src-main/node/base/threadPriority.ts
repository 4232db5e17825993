import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The calling thread's id (Linux: /proc/thread-self names it); undefined where there is no such thing. */
function currentThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isSafeInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes the calling thread `steps` nice levels kinder than it is now (at most 19), so that when the machine is
 * short of cores the scheduler runs the other threads first and this one in what time is left. Linux only: there
 * setpriority() on a thread id applies to that thread alone. Elsewhere (or where it is refused) nothing changes and
 * false is returned; it is only ever a preference, never needed for correctness.
 */
export function lowerThisThreadPriority(steps: number): boolean {
  const tid = currentThreadId();
  if (tid === undefined) return false;
  try {
    setPriority(tid, Math.min(19, getPriority(tid) + steps));
    return true;
  } catch {
    return false;
  }
}
