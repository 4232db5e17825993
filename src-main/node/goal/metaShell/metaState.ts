import { createHash } from 'node:crypto';
import { renameSync } from 'node:fs';
import { acquireFileLock, LockLostError, removeDeadLockLeftovers, type HeldLock } from './fileLock';
import { removeLeftoverTemps, syncFolder, writeFileDurably } from '../../base/durableWrite';
import { ensureMetaDir, metaPaths, readMetaFile, type MetaPaths } from './metaFiles';
import { initialSessionState, parseSessionState, type SessionState } from './sessionState';
import { setAtKey } from './stateKey';
import { DomainError } from '../../base/domainError';

export const DEFAULT_LOCK_TIMEOUT_MS = 5000;

/**
 * session.json could not be read as JSON at all (truncated, overwritten with something else). It was moved aside,
 * not replaced: `keptAt` is where it is now. The host should show this message to the user.
 */
export class SessionStateCorruptError extends DomainError {
  constructor(
    readonly file: string,
    readonly keptAt: string,
    readonly reason: string,
  ) {
    super(
      'state',
      `${file} is not valid JSON (${reason}). It was kept aside as ${keptAt} and nothing was replaced; ` +
        'repair it and move it back, or start the session again to create a fresh state.',
    );
    this.name = 'SessionStateCorruptError';
  }
}

/** update_state before the session's state exists (initialize creates it). */
export class SessionStateMissingError extends DomainError {
  constructor(readonly file: string) {
    super('state', `${file} does not exist yet: the session's state is created when the session starts (MetaState.initialize).`);
    this.name = 'SessionStateMissingError';
  }
}

export interface MetaStateOptions {
  /** See FileLockOptions.staleMs. */
  staleLockMs?: number;
  /** Called between the temporary file's fsync and its rename (tests kill the process here). */
  beforeRename?: () => void;
}

type Parsed = { state: SessionState } | { corrupt: string } | { absent: true };

/**
 * A workspace's `.meta` state files, for the host and the `omni` CLI alike (see docs/meta-shell-protocol.md).
 * Every change to session.json is read–modify–write under a lock that holds across processes, validated against the
 * SessionState schema before anything is written, and written atomically (temporary file, fsync, rename, fsync of
 * the folder). A session.json that is not JSON is never silently replaced: it is moved aside and reported
 * (SessionStateCorruptError); one that is JSON but breaks the schema is left where it is and reported with the bad
 * field (SessionStateInvalidError), so the user can fix that one field.
 */
export class MetaState {
  readonly paths: MetaPaths;

  constructor(
    workspace: string,
    private readonly options: MetaStateOptions = {},
  ) {
    this.paths = metaPaths(workspace);
  }

  /** The current state, or null before the session has one. Throws SessionStateInvalidError / SessionStateCorruptError. */
  async read(): Promise<SessionState | null> {
    const parsed = this.parseFile();
    if ('state' in parsed) return parsed.state;
    if ('absent' in parsed) return null;
    // Moving a file aside changes .meta, so it happens under the lock (and only if it is still corrupt then).
    return this.locked(DEFAULT_LOCK_TIMEOUT_MS, () => this.readLocked());
  }

  /** Creates the state (status "planning") unless one exists; returns whichever is there. */
  async initialize(initial: SessionState | { sessionId: string }, lockTimeoutMs = DEFAULT_LOCK_TIMEOUT_MS): Promise<SessionState> {
    const fresh = parseSessionState('status' in initial ? initial : initialSessionState(initial.sessionId), 'MetaState.initialize');
    return this.locked(lockTimeoutMs, (lock) => {
      const existing = this.readLocked();
      if (existing) return existing;
      this.write(fresh, lock);
      return fresh;
    });
  }

  /**
   * update_state(key, value, lock_timeout_ms = 5000) of the host protocol: sets the field at the dot path `key`
   * ("status", "plan.tasks.1.status", "variables.x"; undefined removes it) and writes the whole state atomically.
   * Throws LockTimeoutError when the lock is not acquired within `lockTimeoutMs`, StateKeyError for a bad key, and
   * SessionStateInvalidError (naming the field) when the change would break the schema; then nothing is written.
   */
  async updateState(key: string, value: unknown, lockTimeoutMs = DEFAULT_LOCK_TIMEOUT_MS): Promise<SessionState> {
    return this.locked(lockTimeoutMs, (lock) => {
      const current = this.readLocked();
      if (!current) throw new SessionStateMissingError(this.paths.session);
      const next = setAtKey(current, key, value);
      const state = parseSessionState(next, `update_state("${key}")`);
      this.write(state, lock);
      return state;
    });
  }

  /** context.md's text and SHA-256 (hex), or null when the user has not written one. */
  readContext(): { text: string; sha256: string; bytes: number } | null {
    const data = readMetaFile(this.paths.context);
    if (!data) return null;
    return { text: data.toString('utf8'), sha256: createHash('sha256').update(data).digest('hex'), bytes: data.length };
  }

  private async locked<T>(lockTimeoutMs: number, work: (lock: HeldLock) => T): Promise<T> {
    ensureMetaDir(this.paths);
    const lock = await acquireFileLock(this.paths.lock, lockTimeoutMs, { staleMs: this.options.staleLockMs, lockedName: '.meta/session.json' });
    try {
      // Nobody else writes now: whatever temporary files are here were left by killed writers.
      removeLeftoverTemps(this.paths.session);
      removeDeadLockLeftovers(this.paths.lock);
      return work(lock);
    } finally {
      lock.release();
    }
  }

  private parseFile(): Parsed {
    const data = readMetaFile(this.paths.session);
    if (!data) return { absent: true };
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
    } catch (error) {
      return { corrupt: data.length === 0 ? 'the file is empty' : (error as Error).message };
    }
    return { state: parseSessionState(json, this.paths.session) };
  }

  /** Under the lock: the state, null if absent; a corrupt file is moved aside and reported. */
  private readLocked(): SessionState | null {
    const parsed = this.parseFile();
    if ('state' in parsed) return parsed.state;
    if ('absent' in parsed) return null;
    const keptAt = `${this.paths.session}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(this.paths.session, keptAt);
    syncFolder(this.paths.dir);
    throw new SessionStateCorruptError(this.paths.session, keptAt, parsed.corrupt);
  }

  private write(state: SessionState, lock: HeldLock): void {
    writeFileDurably(this.paths.session, `${JSON.stringify(state, null, 2)}\n`, {
      beforeRename: () => {
        this.options.beforeRename?.();
        // Narrows the window in which a writer whose lock was taken over (presumed hung) could overwrite a newer state.
        if (!lock.stillHeld()) throw new LockLostError('.meta/session.json');
      },
    });
  }
}
