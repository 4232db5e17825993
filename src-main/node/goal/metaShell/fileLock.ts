import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentProcess, isProcessGone, type ProcessIdentity } from './processIdentity';
import { DomainError } from '../../base/domainError';

/** What a lock file holds: who took it, when, and a token only that holder knows. */
export interface LockHolder extends ProcessIdentity {
  acquired_at: string;
  token: string;
}

/** The lock was not acquired within the time allowed. `holder` is who had it when we gave up (null if unreadable). */
export class LockTimeoutError extends DomainError {
  constructor(
    readonly lockFile: string,
    readonly timeoutMs: number,
    readonly holder: LockHolder | null,
    /** The locked file as the user knows it (".meta/session.json"). */
    readonly lockedName: string,
  ) {
    super(
      'unavailable',
      `could not lock ${lockedName} within ${timeoutMs} ms: ` +
        (holder ? `held by pid ${holder.pid}${holder.host === currentProcess().host ? '' : ` on ${holder.host}`} since ${holder.acquired_at}` : 'its lock file is unreadable') +
        `. Try again once that process is done; if it hangs, stop it (a lock whose holder has died is taken over automatically).`,
    );
    this.name = 'LockTimeoutError';
  }
}

/** The lock was taken over while we held it (we were presumed dead or hung); what we were doing was not written. */
export class LockLostError extends DomainError {
  constructor(readonly lockedName: string) {
    super('state', `lost the lock on ${lockedName} before writing it (another process took it over as stale); nothing was written, try again`);
    this.name = 'LockLostError';
  }
}

export interface FileLockOptions {
  /**
   * A lock held longer than this is taken over even if its holder still runs (a hung process, or one on another
   * machine whose liveness cannot be checked). A lock whose holder has died on this machine is taken over at once.
   * Default 30 s: update_state holds the lock for milliseconds.
   */
  staleMs?: number;
  /** Name for messages (".meta/session.json"). */
  lockedName?: string;
}

export interface HeldLock {
  readonly token: string;
  /** True while the lock file is still ours (nobody took it over). */
  stillHeld(): boolean;
  /** Removes the lock file if it is still ours. */
  release(): void;
}

/** A lock file whose content cannot be read (damaged by hand) is stale after this long. */
const UNREADABLE_STALE_MS = 2000;

interface Observed {
  holder: LockHolder | null;
  /** The lock file's inode: a taken-over lock is recognised as the same file we judged, not a newer one. */
  ino: number;
  ageMs: number;
}

/**
 * A lock that holds across processes (the app and the `omni` CLI) and survives the death of its holder:
 * - taking it is atomic and creates the file whole: the holder's JSON goes to a private temporary file that is then
 *   hard-linked to the lock's name; link() fails if a lock is there (O_EXCL semantics, and never an empty lock file);
 * - a lock whose holder died (same machine: pid gone, a zombie, or reused) or that is older than `staleMs` is taken
 *   over: under a short-lived guard file, the lock is re-read and removed only if it is still the very file judged
 *   stale (same inode and token), so two waiters cannot both take over and remove each other's fresh lock;
 * - waiting polls with a growing, jittered interval and gives up exactly at the deadline with LockTimeoutError.
 */
export async function acquireFileLock(lockFile: string, timeoutMs: number, options: FileLockOptions = {}): Promise<HeldLock> {
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) throw new RangeError(`lock_timeout_ms must be a number of milliseconds ≥ 0, got ${timeoutMs}`);
  const staleMs = options.staleMs ?? 30_000;
  const lockedName = options.lockedName ?? basename(lockFile);
  const deadline = performance.now() + timeoutMs;
  let pause = 2;
  let lastSeen: LockHolder | null = null;
  for (;;) {
    const token = randomBytes(12).toString('hex');
    if (tryCreate(lockFile, holderFor(token))) return heldLock(lockFile, token);
    const seen = observe(lockFile);
    if (seen) {
      lastSeen = seen.holder;
      if (isStale(seen, staleMs)) {
        takeOver(lockFile, seen, staleMs);
        continue;
      }
    } else {
      continue; // released between our attempt and the look: try again at once
    }
    const left = deadline - performance.now();
    if (left <= 0) throw new LockTimeoutError(lockFile, timeoutMs, lastSeen, lockedName);
    await sleep(Math.min(left, pause * (0.5 + Math.random())));
    pause = Math.min(pause * 2, 50);
  }
}

function holderFor(token: string): LockHolder {
  return { ...currentProcess(), acquired_at: new Date().toISOString(), token };
}

/** Creates the lock whole, or returns false if one exists. */
function tryCreate(lockFile: string, holder: LockHolder): boolean {
  const temp = `${lockFile}.${holder.pid}.${holder.token}.tmp`;
  writeFileSync(temp, JSON.stringify(holder), { flag: 'wx', mode: 0o644 });
  try {
    linkSync(temp, lockFile);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    // No hard links here: create the lock itself exclusively (a crash before its content lands leaves an empty lock,
    // taken over after UNREADABLE_STALE_MS).
    try {
      writeFileSync(lockFile, JSON.stringify(holder), { flag: 'wx', mode: 0o644 });
      return true;
    } catch (inner) {
      if ((inner as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw inner;
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

function observe(lockFile: string): Observed | null {
  let fd: number;
  try {
    fd = openSync(lockFile, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    let holder: LockHolder | null = null;
    try {
      const parsed = JSON.parse(readFileSync(fd, 'utf8')) as Partial<LockHolder>;
      if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.token === 'string' && typeof parsed.acquired_at === 'string') {
        holder = parsed as LockHolder;
      }
    } catch {
      // unreadable: judged by age
    }
    return { holder, ino: stat.ino, ageMs: Date.now() - stat.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

function isStale(seen: Observed, staleMs: number): boolean {
  if (!seen.holder) return seen.ageMs > UNREADABLE_STALE_MS;
  if (isProcessGone(seen.holder)) return true;
  const heldFor = Date.now() - Date.parse(seen.holder.acquired_at);
  return !(heldFor <= staleMs); // NaN (a mangled date) counts as stale
}

/** Removes the lock judged stale, if it is still that lock, under the take-over guard. */
function takeOver(lockFile: string, judged: Observed, staleMs: number): void {
  const guard = `${lockFile}.takeover`;
  const token = randomBytes(12).toString('hex');
  if (!tryCreate(guard, holderFor(token))) {
    const seen = observe(guard);
    if (seen && isStale(seen, staleMs)) removeIfStill(guard, seen);
    return;
  }
  try {
    const now = observe(lockFile);
    if (now && now.ino === judged.ino && now.holder?.token === judged.holder?.token) removeIfStill(lockFile, now);
  } finally {
    const mine = observe(guard);
    if (mine?.holder?.token === token) rmSync(guard, { force: true });
  }
}

/**
 * Removes `file` only if it is still the file observed: it is first renamed to a private name, and put back if it
 * turns out to be a newer one (a lock or guard created since we looked).
 */
function removeIfStill(file: string, observed: Observed): void {
  const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (statSync(aside).ino !== observed.ino) {
      try {
        linkSync(aside, file);
      } catch {
        // A newer one exists again: the one we moved was superseded anyway.
      }
    }
  } finally {
    unlinkSync(aside);
  }
}

function heldLock(lockFile: string, token: string): HeldLock {
  const stillHeld = () => observe(lockFile)?.holder?.token === token;
  return {
    token,
    stillHeld,
    release: () => {
      if (stillHeld()) rmSync(lockFile, { force: true });
    },
  };
}

/** Removes the temporary and aside files of lock attempts whose process has died (a kill mid-attempt leaves them). */
export function removeDeadLockLeftovers(lockFile: string): void {
  const dir = dirname(lockFile);
  const prefix = `${basename(lockFile)}.`;
  const host = currentProcess().host;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !(name.endsWith('.tmp') || name.endsWith('.stale'))) continue;
    const pid = Number(name.slice(prefix.length).split('.').find((part) => /^\d+$/.test(part)));
    if (Number.isInteger(pid) && isProcessGone({ pid, host })) rmSync(join(dir, name), { force: true });
  }
}
