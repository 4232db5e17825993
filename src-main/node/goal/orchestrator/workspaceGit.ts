import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DomainError } from '../../base/domainError';

/** git is not installed or not on PATH: the orchestrator commits every task, so it cannot run without it. */
export class GitMissingError extends DomainError {
  constructor(detail: string) {
    super('unavailable', `git is not installed or not on PATH (${detail}); the goal run commits each task with git: install git (e.g. "apt install git") and run again`);
    this.name = 'GitMissingError';
  }
}

/**
 * A git command failed; `stderr` says why. Not a DomainError: where a caller can tell the user what to do about it
 * (a revert that conflicts) it says so with one; anywhere else it is an internal failure, its stderr in the host log.
 */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed: ${stderr.trim() || 'no message'}`);
    this.name = 'GitCommandError';
  }
}

/**
 * The repository's own config names a command git would run while the host commits or reverts (a filter, a merge
 * driver, an external diff). Agents can write .git/config, so the host does not run it.
 */
export class GitConfigRefusedError extends DomainError {
  constructor(readonly keys: readonly string[]) {
    super(
      'state',
      `the workspace's .git/config sets ${keys.join(', ')}: a command git would run on the host while the goal run commits. ` +
        'Agents can write .git, so the goal run does not commit with it. If you did not set it yourself, remove it ' +
        `(git config --local --unset ${keys[0]}); then run again`,
    );
    this.name = 'GitConfigRefusedError';
  }
}

/**
 * Repository-level settings that make add, commit or revert run a command (the user's global ones are trusted; hooks
 * and fsmonitor are switched off on every call instead, see SAFE_CONFIG).
 */
const COMMAND_KEYS = '^(filter\\..*|merge\\..*\\.driver|diff\\..*\\.(textconv|command)|diff\\.external)$';

/**
 * Settings for every git call the host makes in a workspace. Agents can write the workspace, .git included, so
 * the host does not run what they may have planted there: no hooks, no fsmonitor command, no signing prompt that
 * could hang a run. Commits carry the user's identity when git has one, else the host's.
 */
const SAFE_CONFIG = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'commit.gpgsign=false', '-c', 'core.quotepath=off'];
const FALLBACK_IDENTITY = ['-c', 'user.name=Omniscient Shell', '-c', 'user.email=orchestrator@omniscient-shell.invalid'];

/** .meta is the host's own (session.json changes at every step): never part of a task's commit or its revert. */
const NOT_META = ':(exclude).meta';

/** The workspace's git repository, as the orchestrator uses it: one commit per task attempt, reverts for rollback. */
export class WorkspaceGit {
  private identity: string[] | null = null;

  constructor(readonly workspace: string) {}

  /** Initialises a repository in the workspace if it is in none. */
  async ensureRepo(): Promise<{ created: boolean }> {
    const inside = await this.run(['rev-parse', '--is-inside-work-tree'], { allowFail: true });
    if (inside.code === 0 && inside.stdout.trim() === 'true') return { created: false };
    await this.run(['init', '-q']);
    return { created: true };
  }

  /** Stages every change of the workspace (but .meta) and commits it; the commit id, or null when nothing changed. */
  async commitAll(message: string): Promise<string | null> {
    await this.refusePlantedCommands();
    await this.run(['add', '-A', '--', '.', NOT_META]);
    const staged = await this.run(['diff', '--cached', '--quiet', '--no-ext-diff', '--no-textconv', '--', '.', NOT_META], { allowFail: true });
    if (staged.code === 0) return null;
    // Only the workspace's paths: when the workspace is a folder inside a larger repository, whatever the user has
    // staged elsewhere in it stays staged and out of the task's commit.
    await this.run([...(await this.identityConfig()), 'commit', '-q', '--no-verify', '-m', message, '--', '.', NOT_META]);
    return (await this.run(['rev-parse', 'HEAD'])).stdout.trim();
  }

  /** Whether the workspace has changes git would commit (outside .meta). */
  async isDirty(): Promise<boolean> {
    // status runs clean filters too (to compare a touched file's content).
    await this.refusePlantedCommands();
    const status = await this.run(['status', '--porcelain', '--', '.', NOT_META]);
    return status.stdout.trim() !== '';
  }

  /** Whether `commit` exists and is in HEAD's history (so reverting it makes sense). */
  async isInHistory(commit: string): Promise<boolean> {
    return (await this.run(['merge-base', '--is-ancestor', commit, 'HEAD'], { allowFail: true })).code === 0;
  }

  /**
   * `git revert` of the commits in the order given (callers pass newest first), recorded as one revert commit with
   * `message`; history is never rewritten. On a conflict the revert is aborted (the workspace is as it was) and
   * GitCommandError says which files.
   */
  async revertAll(commits: readonly string[], message: string): Promise<string> {
    await this.refusePlantedCommands();
    const result = await this.run(['revert', '--no-commit', ...commits], { allowFail: true });
    if (result.code !== 0) {
      await this.run(['revert', '--abort'], { allowFail: true });
      throw new GitCommandError(['revert', ...commits], `${result.stderr}${result.stdout}`);
    }
    await this.run([...(await this.identityConfig()), 'commit', '-q', '--no-verify', '--allow-empty', '-m', message]);
    return (await this.run(['rev-parse', 'HEAD'])).stdout.trim();
  }

  /** GitConfigRefusedError when the repository's config (includes followed) names a command git would run. */
  private async refusePlantedCommands(): Promise<void> {
    const found = await this.run(['config', '--local', '--includes', '--name-only', '--get-regexp', COMMAND_KEYS], { allowFail: true });
    const keys = found.code === 0 ? found.stdout.split('\n').map((k) => k.trim()).filter((k) => k !== '') : [];
    if (keys.length > 0) throw new GitConfigRefusedError([...new Set(keys)]);
  }

  private async identityConfig(): Promise<string[]> {
    if (!this.identity) {
      const email = await this.run(['config', 'user.email'], { allowFail: true });
      this.identity = email.code === 0 && email.stdout.trim() !== '' ? [] : FALLBACK_IDENTITY;
    }
    return this.identity;
  }

  private run(args: readonly string[], options: { allowFail?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      execFile(
        'git',
        [...SAFE_CONFIG, ...args],
        { cwd: this.workspace, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } },
        (error, stdout, stderr) => {
          if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
            // spawn reports a missing cwd as ENOENT too: only a missing git is GitMissingError.
            if (!existsSync(this.workspace)) return reject(new GitCommandError(args, `the workspace folder ${this.workspace} does not exist`));
            return reject(new GitMissingError(error.message));
          }
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          if (code !== 0 && !options.allowFail) return reject(new GitCommandError(args, stderr));
          resolve({ code, stdout, stderr });
        },
      );
    });
  }
}
