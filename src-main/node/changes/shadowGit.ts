import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DomainError } from '../base/domainError';

/** git is not installed or not on PATH: snapshots are git trees, so the changes area cannot work without it. */
export class ShadowGitMissingError extends DomainError {
  constructor(detail: string) {
    super('unavailable', `git is not installed or not on PATH (${detail}); workspace snapshots are kept with git: install git (e.g. "apt install git") and try again`);
    this.name = 'ShadowGitMissingError';
  }
}

/** A git command on the shadow store failed; an internal failure, its stderr goes to the host log. */
export class ShadowGitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} (shadow store) failed: ${stderr.trim() || 'no message'}`);
    this.name = 'ShadowGitCommandError';
  }
}

/**
 * Settings on every call, on top of the store's own config (shadowStoreSetup.ts writes the same there): the
 * workspace is agent-writable, so nothing it plants may make git run a command or change what is stored. No hooks,
 * no fsmonitor, no signing; no attributes or excludes file outside the workspace (the user's would change snapshots).
 */
const SAFE_CONFIG = [
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.fsmonitor=false',
  '-c', 'commit.gpgsign=false',
  '-c', 'core.attributesFile=/dev/null',
  '-c', 'core.excludesFile=/dev/null',
  '-c', 'core.autocrlf=false',
  '-c', 'core.symlinks=true',
  '-c', 'core.quotePath=false',
  '-c', 'gc.auto=0',
];

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * git on one shadow store: GIT_DIR is the store, GIT_WORK_TREE the workspace, GIT_INDEX_FILE the store's own index.
 * The environment is built from scratch for git: every GIT_* variable of the host's environment is dropped (one
 * could point git at another repository, a config or an external diff), no system or global config is read.
 */
export class ShadowGit {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly gitDir: string,
    readonly workspace: string,
    readonly indexFile: string,
  ) {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
    Object.assign(env, {
      GIT_DIR: gitDir,
      GIT_WORK_TREE: workspace,
      GIT_INDEX_FILE: indexFile,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      LC_ALL: 'C',
    });
    this.env = env;
  }

  /**
   * Runs git; rejects with ShadowGitCommandError on a non-zero exit unless `allowFail`. `input` may come later (a
   * promise): git starts at once and waits for it on its stdin.
   */
  run(args: readonly string[], options: { input?: Buffer | string | Promise<Buffer | string>; allowFail?: boolean; withoutWorkTree?: boolean } = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      let env = this.env;
      if (options.withoutWorkTree) {
        env = { ...this.env };
        delete env.GIT_WORK_TREE;
      }
      // The workspace as cwd: pathspecs and ls-files output are relative to it.
      const child = spawn('git', [...SAFE_CONFIG, ...args], { cwd: this.workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', (error: NodeJS.ErrnoException) => {
        // spawn reports a missing cwd as ENOENT too: only a missing git is ShadowGitMissingError.
        if (error.code === 'ENOENT' && !existsSync(this.workspace)) reject(new ShadowGitCommandError(args, `the workspace folder ${this.workspace} does not exist`));
        else if (error.code === 'ENOENT') reject(new ShadowGitMissingError(error.message));
        else reject(error);
      });
      child.on('close', (code) => {
        const result = { code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
        if (result.code !== 0 && !options.allowFail) reject(new ShadowGitCommandError(args, result.stderr));
        else resolve(result);
      });
      // git may exit before reading all of its input (an early failure): that is reported by its exit code.
      child.stdin.on('error', () => undefined);
      void Promise.resolve(options.input ?? '').then(
        (input) => child.stdin.end(input),
        () => child.stdin.end(),
      );
    });
  }
}

/** Splits git's -z output into its NUL-terminated fields (as UTF-8 strings). */
export function nulFields(output: Buffer): string[] {
  const text = output.toString('utf8');
  const fields = text.split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  return fields;
}
