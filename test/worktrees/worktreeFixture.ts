// Worktree sessions on real parts: a git repository in a temp folder, SQLite on disk, the ledger, the session
// service with the host's worktree maker, and the worktree service.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { SessionService } from '../../src-main/node/sessions/sessionService';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { addWorktree } from '../../src-main/node/worktrees/worktreeGit';
import { WorktreeService } from '../../src-main/node/worktrees/worktreeService';
import { tempDir } from '../helpers';

export class WorktreeFixture {
  readonly dir = tempDir('worktrees');
  readonly home = join(this.dir.path, 'home');
  readonly repo = join(this.dir.path, 'repo');
  readonly db: Database;
  readonly ledger: Ledger;
  readonly sessions: SessionService;
  readonly worktrees: WorktreeService;

  constructor() {
    mkdirSync(this.home);
    mkdirSync(this.repo);
    this.db = openDatabase(join(this.home, 'host.db'));
    this.ledger = new Ledger(this.db);
    this.sessions = new SessionService(this.db, this.ledger, Date.now, (options) => addWorktree({ ...options, root: join(this.home, 'worktrees') }));
    this.worktrees = new WorktreeService(this.sessions, this.ledger);
    this.git(this.repo, 'init', '-q', '-b', 'main');
    this.git(this.repo, 'config', 'user.email', 'dev@example.invalid');
    this.git(this.repo, 'config', 'user.name', 'Dev');
    writeFileSync(join(this.repo, 'README.md'), 'hello\n');
    this.git(this.repo, 'add', 'README.md');
    this.git(this.repo, 'commit', '-q', '-m', 'first');
  }

  git(cwd: string, ...args: string[]): string {
    return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
  }

  ledgerTypes(sessionId: string): string[] {
    this.ledger.flush();
    return this.ledger.list({ sessionId, limit: 100 }).reverse().map((e) => e.type);
  }

  dispose(): void {
    this.sessions.dispose();
    this.ledger.dispose();
    this.db.close();
    this.dir.cleanup();
  }
}
