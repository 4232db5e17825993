import { readFileSync } from 'node:fs';

/** Clock ticks per second and page size as Linux has them on every platform Node supports (USER_HZ is fixed at 100). */
const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

export interface ProcessUsage {
  /** User + system CPU time, in ms. */
  cpuMs: number;
  rssBytes: number;
}

/**
 * CPU time and resident memory of another process, from /proc/<pid>/stat (Linux). Null where there is no /proc or
 * the process is gone; the caller then has only its wall-clock deadline.
 */
export function readProcessUsage(pid: number): ProcessUsage | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or parentheses: fields follow the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 (utime, stime) and 24 (rss), counted from 1, with fields 1-2 removed.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const rssPages = Number(fields[21]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime) || !Number.isFinite(rssPages)) return null;
  return { cpuMs: ((utime + stime) * 1000) / TICKS_PER_SECOND, rssBytes: rssPages * PAGE_BYTES };
}
