import { realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { type RecentWorkspace, type Session, type SessionChange, type SessionRunning, type SessionWorktree } from '../../../src-preload/contract';
import { DomainError } from '../base/domainError';
import { Emitter, toDisposable, type Disposable } from '../../../src-preload/rpc';
import { AsyncEmitter } from '../base/asyncEmitter';
import { newId } from '../base/ids';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';

interface Row {
  id: string;
  name: string;
  workspace: string;
  status: 'open' | 'closed';
  /** JSON StoredWorktree, or null (migration 14). */
  worktree: string | null;
  created_at: number;
  updated_at: number;
}

/** A session's worktree as stored: the contract's SessionWorktree and the worktree folder. */
export interface StoredWorktree extends SessionWorktree {
  path: string;
}

/** Makes a worktree for a new session (worktrees/worktreeGit.ts addWorktree, under the app home). */
export type WorktreeMaker = (options: { workspace: string; sessionId: string; sessionName: string; base: string }) => Promise<StoredWorktree & { workspace: string }>;

function parseWorktree(text: string | null): StoredWorktree | null {
  if (!text) return null;
  const value = JSON.parse(text) as StoredWorktree;
  return { repo: value.repo, branch: value.branch, base: value.base, path: value.path };
}

const toSession = (row: Row): Session => ({
  id: row.id,
  name: row.name,
  workspace: row.workspace,
  status: row.status,
  worktree: worktreeView(parseWorktree(row.worktree)),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

function worktreeView(stored: StoredWorktree | null): SessionWorktree | null {
  return stored ? { repo: stored.repo, branch: stored.branch, base: stored.base } : null;
}

/** Resolves a workspace folder the user typed to its real path, or says exactly what is wrong with it. */
export function resolveWorkspace(input: string): string {
  if (!isAbsolute(input)) {
    throw new DomainError('invalid_input', `workspace "${input}" is not an absolute path; give the full path, e.g. /home/you/project`);
  }
  let real: string;
  try {
    real = realpathSync(input);
  } catch {
    throw new DomainError('not_found', `workspace folder "${input}" does not exist; create it first or pick another folder`);
  }
  if (!statSync(real).isDirectory()) {
    throw new DomainError('invalid_input', `workspace "${input}" is a file, not a folder`);
  }
  return real;
}

/** Who closed which session: what the session's parts need to stop their work and record who asked. */
export interface SessionClosed {
  sessionId: string;
  actor: string;
}

/** Counts what of one kind runs in a session (its terminals, say): each area that runs things registers one. */
export type RunningCounter = (sessionId: string) => number;

/** Whether `path` is a folder now (a recent workspace may have been deleted or moved since). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Sessions on workspace folders: created, renamed, closed and reopened by the user, kept in SQLite. */
export class SessionService {
  private readonly changed = new Emitter<SessionChange>();
  readonly onDidChange = this.changed.event;
  private readonly closed = new AsyncEmitter<SessionClosed>();
  /**
   * A session was closed: what runs in it (terminals, process runs, harness sessions) stops. `close` resolves once
   * every listener has, so the person who closed it sees nothing of it still running.
   */
  readonly onDidClose = this.closed.event;
  private readonly counters = new Set<{ kind: keyof SessionRunning; count: RunningCounter }>();

  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly now: () => number = Date.now,
    /** Makes a worktree session's worktree (composeSessions: under the app home); none: worktree sessions are refused. */
    private readonly makeWorktree?: WorktreeMaker,
  ) {}

  create(workspaceInput: string, name: string | undefined, actor: string): Session {
    const workspace = resolveWorkspace(workspaceInput);
    return this.insert(newId('ses'), name ?? basename(workspace) ?? workspace, workspace, null, actor);
  }

  /**
   * A session on a new branch in its own worktree (docs/worktrees.md): `makeWorktree` runs `git worktree add`, and the
   * session's workspace is the worktree (or the same sub-folder of it as `workspaceInput` is of the repository).
   */
  async createInWorktree(workspaceInput: string, name: string | undefined, base: string, actor: string): Promise<Session> {
    if (!this.makeWorktree) throw new DomainError('unavailable', 'this host cannot make worktrees; create the session without "work on a new branch"');
    const folder = resolveWorkspace(workspaceInput);
    const id = newId('ses');
    const sessionName = name ?? basename(folder) ?? folder;
    const made = await this.makeWorktree({ workspace: folder, sessionId: id, sessionName, base });
    return this.insert(id, sessionName, made.workspace, { repo: made.repo, branch: made.branch, base: made.base, path: made.path }, actor);
  }

  /** The session's worktree as stored (with its folder), or null for a session on a folder. */
  worktreeOf(id: string): StoredWorktree | null {
    const row = this.db.prepare<[string], Pick<Row, 'worktree'>>('SELECT worktree FROM sessions WHERE id = ?').get(id);
    if (!row) throw new DomainError('not_found', `no session with id ${id}`);
    return parseWorktree(row.worktree);
  }

  private insert(id: string, name: string, workspace: string, worktree: StoredWorktree | null, actor: string): Session {
    const ts = this.now();
    const row: Row = { id, name, workspace, status: 'open', worktree: worktree ? JSON.stringify(worktree) : null, created_at: ts, updated_at: ts };
    this.ledger.transact(() => {
      this.db
        .prepare('INSERT INTO sessions (id, name, workspace, status, worktree, created_at, updated_at) VALUES (@id, @name, @workspace, @status, @worktree, @created_at, @updated_at)')
        .run(row);
      this.ledger.append({ type: 'session.create', actor, sessionId: row.id, payload: { name: row.name, workspace, ...(worktree ? { worktree } : {}) } });
    });
    const session = toSession(row);
    this.changed.fire({ kind: 'created', session });
    return session;
  }

  list(includeClosed = false): Session[] {
    const sql = `SELECT * FROM sessions ${includeClosed ? '' : "WHERE status = 'open'"} ORDER BY created_at, id`;
    return this.db.prepare<[], Row>(sql).all().map(toSession);
  }

  get(id: string): Session {
    const row = this.db.prepare<[string], Row>('SELECT * FROM sessions WHERE id = ?').get(id);
    if (!row) throw new DomainError('not_found', `no session with id ${id}`);
    return toSession(row);
  }

  /** The session, which must be open (terminals cannot start in a closed one). */
  getOpen(id: string): Session {
    const session = this.get(id);
    if (session.status !== 'open') throw new DomainError('state', `session "${session.name}" is closed; reopen it first`);
    return session;
  }

  rename(id: string, name: string, actor: string): Session {
    const before = this.get(id);
    return this.update(id, { name }, { type: 'session.rename', actor, payload: { from: before.name, to: name } });
  }

  /**
   * How an area says what it runs in a session, so `running` can tell the user what closing the session would stop.
   * An area that stops something on `onDidClose` registers its counter here too.
   */
  registerRunning(kind: keyof SessionRunning, count: RunningCounter): Disposable {
    const counter = { kind, count };
    this.counters.add(counter);
    return toDisposable(() => this.counters.delete(counter));
  }

  /** What runs in the session now: what closing it would stop. */
  running(id: string): SessionRunning {
    this.get(id);
    const running: SessionRunning = { terminals: 0, runs: 0, agents: 0 };
    for (const { kind, count } of this.counters) running[kind] += count(id);
    return running;
  }

  /**
   * The folders of past sessions, most recently used first, each once. A worktree session counts for its repository's
   * checkout (the folder the user picked), not for the worktree under the app home.
   */
  recentWorkspaces(limit: number): RecentWorkspace[] {
    // Iterated, not loaded: it stops at `limit` folders however many sessions there were.
    const rows = this.db.prepare<[], Row>('SELECT * FROM sessions ORDER BY updated_at DESC, id DESC').iterate();
    const seen = new Set<string>();
    const recent: RecentWorkspace[] = [];
    for (const row of rows) {
      const workspace = parseWorktree(row.worktree)?.repo ?? row.workspace;
      if (seen.has(workspace)) continue;
      seen.add(workspace);
      recent.push({ workspace, lastUsedAt: row.updated_at, sessionName: row.name, exists: isFolder(workspace) });
      if (recent.length === limit) break;
    }
    return recent;
  }

  async close(id: string, actor: string): Promise<Session> {
    this.get(id);
    const session = this.update(id, { status: 'closed' }, { type: 'session.close', actor, payload: {} });
    await this.closed.fire({ sessionId: id, actor });
    return session;
  }

  reopen(id: string, actor: string): Session {
    this.get(id);
    return this.update(id, { status: 'open' }, { type: 'session.reopen', actor, payload: {} });
  }

  private update(
    id: string,
    fields: Partial<Pick<Row, 'name' | 'status'>>,
    event: { type: string; actor: string; payload: Record<string, unknown> },
  ): Session {
    const ts = this.now();
    this.ledger.transact(() => {
      this.db
        .prepare('UPDATE sessions SET name = coalesce(@name, name), status = coalesce(@status, status), updated_at = @ts WHERE id = @id')
        .run({ id, ts, name: fields.name ?? null, status: fields.status ?? null });
      this.ledger.append({ ...event, sessionId: id });
    });
    const session = this.get(id);
    this.changed.fire({ kind: 'updated', session });
    return session;
  }

  dispose(): void {
    this.counters.clear();
    this.changed.dispose();
    this.closed.dispose();
  }
}
