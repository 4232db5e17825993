import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DomainError } from './domainError';

/** git is not installed or not on PATH. */
export class GitMissingError extends DomainError {
  constructor(detail: string, purpose = 'the goal run commits each task with git') {
    super('unavailable', `git is not installed or not on PATH (${detail}); ${purpose}: install git (e.g. "apt install git") and run again`);
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
 * The repository's own config names a command git would run while the host commits, merges or reverts (a filter, a
 * merge driver, an external diff). Agents can write .git/config, so the host does not run it.
 */
export class GitConfigRefusedError extends DomainError {
  constructor(
    readonly keys: readonly string[],
    /** What the host was about to do, e.g. "while the goal run commits". */
    during = 'while the goal run commits',
  ) {
    super(
      'state',
      `the workspace's .git/config sets ${keys.join(', ')}: a command git would run on the host ${during}. ` +
        `Agents can write .git, so the host does not run git with it. If you did not set it yourself, remove it ` +
        `(git config --local --unset ${keys[0]}); then run again`,
    );
    this.name = 'GitConfigRefusedError';
  }
}

/**
 * Repository-level settings that make add, commit, merge or revert run a command (the user's global ones are trusted;
 * hooks and fsmonitor are switched off on every call instead, see SAFE_CONFIG).
 */
const COMMAND_KEYS = '^(filter\\..*|merge\\..*\\.driver|diff\\..*\\.(textconv|command)|diff\\.external)$';

/**
 * Settings for every git call the host makes in a workspace. Agents can write the workspace, .git included, so
 * the host does not run what they may have planted there: no hooks, no fsmonitor command, no signing prompt that
 * could hang a call. Commits carry the user's identity when git has one, else the host's.
 */
const SAFE_CONFIG = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'commit.gpgsign=false', '-c', 'core.quotepath=off'];
const FALLBACK_IDENTITY = ['-c', 'user.name=Omniscient Shell', '-c', 'user.email=orchestrator@omniscient-shell.invalid'];

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The output passed `maxBytes` and git was stopped there (only with `truncate`). */
  truncated?: boolean;
}

/** What git may print before the host stops reading (a diff of a huge generated file must not exhaust the host). */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/** git in one folder, with the host's safe settings on every call (see SAFE_CONFIG). */
export class SafeGit {
  private identity: string[] | null = null;

  constructor(
    readonly cwd: string,
    /** Said in GitMissingError: why the host needs git here. */
    private readonly purpose?: string,
  ) {}

  /** GitConfigRefusedError when the repository's config (includes followed) names a command git would run. */
  async refusePlantedCommands(during?: string): Promise<void> {
    // Every scope, then the repository's own: "local" (.git/config) and "worktree" (config.worktree, which an agent
    // can switch on with extensions.worktreeConfig); included files count as the scope that includes them.
    const found = await this.run(['config', '--includes', '--show-scope', '--name-only', '--get-regexp', COMMAND_KEYS], { allowFail: true });
    const keys =
      found.code === 0
        ? found.stdout
            .split('\n')
            .map((line) => line.split('\t'))
            .filter(([scope, key]) => (scope === 'local' || scope === 'worktree') && key !== undefined && key.trim() !== '')
            .map(([, key]) => key.trim())
        : [];
    if (keys.length > 0) throw new GitConfigRefusedError([...new Set(keys)], during);
  }

  /** `-c user.*` with the host's identity when git has none for the user, else nothing (the user's own is used). */
  async identityConfig(): Promise<string[]> {
    if (!this.identity) {
      const email = await this.run(['config', 'user.email'], { allowFail: true });
      this.identity = email.code === 0 && email.stdout.trim() !== '' ? [] : FALLBACK_IDENTITY;
    }
    return this.identity;
  }

  /**
   * Runs git with the safe settings. `truncate`: output past `maxBytes` ends the call with what came so far and
   * `truncated` (else it is a failure).
   */
  run(args: readonly string[], options: { allowFail?: boolean; maxBytes?: number; truncate?: boolean } = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      execFile(
        'git',
        [...SAFE_CONFIG, ...args],
        { cwd: this.cwd, maxBuffer: options.maxBytes ?? DEFAULT_MAX_BYTES, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } },
        (error, stdout, stderr) => {
          if (error && options.truncate && (error as NodeJS.ErrnoException).code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
            return resolve({ code: 0, stdout, stderr, truncated: true });
          }
          if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
            // spawn reports a missing cwd as ENOENT too: only a missing git is GitMissingError.
            if (!existsSync(this.cwd)) return reject(new GitCommandError(args, `the folder ${this.cwd} does not exist`));
            return reject(new GitMissingError(error.message, this.purpose));
          }
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          if (code !== 0 && !options.allowFail) return reject(new GitCommandError(args, stderr));
          resolve({ code, stdout, stderr });
        },
      );
    });
  }
}
