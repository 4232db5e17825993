import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireFileLock, LockTimeoutError, removeDeadLockLeftovers, type HeldLock, type LockHolder } from './goal/metaShell/fileLock';
import { currentProcess } from './goal/metaShell/processIdentity';

/** The lock file of a home: `{pid, host, pid_start, acquired_at, token}` of the host that runs on it. */
export function homeLockPath(home: string): string {
  return join(home, 'host.lock');
}

/** The running host as far as a second one can tell: its process, and what host.json says about it if it wrote one. */
export interface HomeHolder {
  pid: number;
  /** The machine it runs on (a home on a shared disk); its liveness can only be checked on this one. */
  host: string;
  /** Where to open it (`omni serve`), when its host.json is there and names the same pid. */
  url?: string;
  /** "omni serve" or "desktop app", from host.json. */
  kind?: string;
}

/**
 * A second host was started on a home that a running host uses. Nothing was opened or written: the caller stops.
 * `holder` is null when the lock file cannot be read (damaged by hand).
 */
export class HomeInUseError extends Error {
  readonly code = 'HOME_IN_USE';
  constructor(
    readonly home: string,
    readonly holder: HomeHolder | null,
  ) {
    super(describe(home, holder));
    this.name = 'HomeInUseError';
  }
}

function describe(home: string, holder: HomeHolder | null): string {
  const hint = 'Open that one, or start this one on another home (--home OTHER_DIR, or OMNI_HOME=OTHER_DIR).';
  if (!holder) {
    return `Another Omniscient Shell host may be using ${home}: its lock file ${homeLockPath(home)} cannot be read. ${hint} If no host is running, delete that file.`;
  }
  const elsewhere = holder.host !== currentProcess().host;
  const where = [`pid ${holder.pid}${elsewhere ? ` on ${holder.host}` : ''}`, holder.kind === 'desktop app' ? 'the desktop app' : holder.url].filter(Boolean).join(', ');
  const remote = elsewhere ? ` This machine cannot tell whether it still runs; if it does not, delete ${homeLockPath(home)}.` : '';
  return `Another Omniscient Shell host (${where}) is using ${home}. ${hint}${remote}`;
}

/** What host.json says about `pid`, if it was written by that process (a file left by an earlier host says nothing). */
function announcedBy(home: string, pid: number): Pick<HomeHolder, 'url' | 'kind'> {
  try {
    const announced = JSON.parse(readFileSync(join(home, 'host.json'), 'utf8')) as { pid?: unknown; url?: unknown; kind?: unknown };
    if (announced.pid !== pid) return {};
    return {
      ...(typeof announced.url === 'string' ? { url: announced.url.endsWith('/') ? announced.url : `${announced.url}/` } : {}),
      ...(typeof announced.kind === 'string' ? { kind: announced.kind } : {}),
    };
  } catch {
    return {};
  }
}

function holderOf(home: string, lock: LockHolder | null): HomeHolder | null {
  if (!lock) return null;
  return { pid: lock.pid, host: lock.host, ...announcedBy(home, lock.pid) };
}

export interface HomeLock {
  readonly file: string;
  /** Removes the lock file if it is still this host's. Safe to call twice. */
  release(): void;
}

/**
 * A lock file written empty-then-filled only where hard links are missing is unreadable for a moment; an unreadable
 * one is taken over once it is this old (fileLock.ts), so a start that finds one waits this long before giving up.
 */
const UNREADABLE_WAIT_MS = 2_500;

/**
 * Takes `<home>/host.lock` for the life of this host, before any database of the home is opened: one host per home.
 * The lock is created atomically and whole (fileLock.ts). A running holder is never timed out (a host runs for days):
 * the second host gets HomeInUseError at once. A holder that died (kill -9, a crash, a power cut) is taken over: its
 * pid is gone, a zombie, or now another process with a different start time (/proc), so a reused pid does not block.
 */
export async function lockHome(home: string): Promise<HomeLock> {
  const file = homeLockPath(home);
  removeDeadLockLeftovers(file);
  const take = (timeoutMs: number) => acquireFileLock(file, timeoutMs, { staleMs: Number.POSITIVE_INFINITY, lockedName: 'host.lock' });
  let held: HeldLock;
  try {
    held = await take(0);
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    if (error.holder) throw new HomeInUseError(home, holderOf(home, error.holder));
    try {
      held = await take(UNREADABLE_WAIT_MS);
    } catch (again) {
      if (again instanceof LockTimeoutError) throw new HomeInUseError(home, holderOf(home, again.holder));
      throw again;
    }
  }
  return { file, release: () => held.release() };
}
