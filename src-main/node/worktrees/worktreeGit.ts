import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { DomainError } from '../base/domainError';
import { GitCommandError, SafeGit } from '../base/safeGit';
import { assertBranchName, BRANCH_PREFIX, branchSlug } from './branchName';

/** Why the host runs git here, for GitMissingError. */
const PURPOSE = 'a worktree session needs git';

/** What `git worktree add` made for a session. */
export interface WorktreeMade {
  repo: string;
  branch: string;
  base: string;
  /** The worktree folder. */
  path: string;
  /** The session's workspace: the worktree folder, or the same sub-folder of it the user picked in the repository. */
  workspace: string;
}

export interface GitInfo {
  inRepo: boolean;
  repo: string | null;
  branches: string[];
  current: string | null;
}

/** A folder's repository: its top level (real path), branches and current branch; `inRepo` false outside one. */
export async function gitInfo(folder: string): Promise<GitInfo> {
  const git = new SafeGit(folder, PURPOSE);
  const top = await git.run(['rev-parse', '--show-toplevel'], { allowFail: true });
  if (top.code !== 0) return { inRepo: false, repo: null, branches: [], current: null };
  const repo = realpathSync(top.stdout.trim());
  const refs = await git.run(['for-each-ref', '--format=%(refname:short)', 'refs/heads']);
  const current = await git.run(['symbolic-ref', '--short', '-q', 'HEAD'], { allowFail: true });
  return {
    inRepo: true,
    repo,
    branches: refs.stdout.split('\n').filter((b) => b !== ''),
    current: current.code === 0 ? current.stdout.trim() || null : null,
  };
}

/**
 * `git worktree add -b omni/<slug> <root>/<sessionId> <base>` for a new session on `workspace` (a folder in a
 * repository): the branch name is made from the session name and made unique (-2, -3, …); `base` must be a local
 * branch. A repository whose config names a command git would run (a checkout runs filters) is refused.
 */
export async function addWorktree(options: { workspace: string; sessionId: string; sessionName: string; base: string; root: string }): Promise<WorktreeMade> {
  const { workspace, sessionId, sessionName, base, root } = options;
  assertBranchName(base, 'worktree.base');
  const info = await gitInfo(workspace);
  if (!info.inRepo || !info.repo) {
    throw new DomainError('state', `"${workspace}" is not in a git repository, so it cannot have a worktree; turn "work on a new branch" off, or pick a folder in a repository`);
  }
  if (!info.branches.includes(base)) {
    throw new DomainError('not_found', `the repository ${info.repo} has no branch "${base}"${info.branches.length ? ` (branches: ${info.branches.slice(0, 20).join(', ')})` : ' (it has no commit yet: commit once first)'}`, {
      issues: [{ path: 'worktree.base', message: 'no such branch' }],
    });
  }
  const git = new SafeGit(info.repo, PURPOSE);
  await git.refusePlantedCommands('while it checks out the new worktree');
  const branch = await freeBranchName(git, `${BRANCH_PREFIX}${branchSlug(sessionName)}`);
  const path = join(root, sessionId);
  mkdirSync(dirname(path), { recursive: true });
  // "--" ends the options: neither the path nor the base can be read as one (both are checked above as well).
  await git.run(['worktree', 'add', '-q', '-b', branch, '--', path, `refs/heads/${base}`]);
  const inRepo = relative(info.repo, workspace);
  const sub = inRepo === '' || inRepo.startsWith('..') ? '' : inRepo;
  const made = join(path, sub);
  // The sub-folder may hold only untracked files in the user's checkout: the session still gets its folder.
  mkdirSync(made, { recursive: true });
  return { repo: info.repo, branch, base, path: realpathSync(path), workspace: realpathSync(made) };
}

async function freeBranchName(git: SafeGit, wanted: string): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? wanted : `${wanted}-${n}`;
    const taken = await git.run(['show-ref', '--verify', '--quiet', `refs/heads/${name}`], { allowFail: true });
    if (taken.code !== 0) return name;
  }
  throw new DomainError('conflict', `the branches ${wanted} to ${wanted}-999 all exist; delete some or rename the session`);
}

/** `git status --porcelain` lines of a checkout (untracked files included, "XY path"). */
export async function uncommittedFiles(git: SafeGit, untracked: 'all' | 'no' = 'all'): Promise<string[]> {
  const status = await git.run(['status', '--porcelain', `--untracked-files=${untracked}`]);
  return status.stdout.split('\n').filter((line) => line.trim() !== '');
}

/** Commits of `branch` not in `base`, newest first. */
export async function commitsNotIn(git: SafeGit, branch: string, base: string): Promise<{ id: string; subject: string }[]> {
  const log = await git.run(['log', '--format=%H%x09%s', `refs/heads/${base}..refs/heads/${branch}`, '--']);
  return log.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      return { id: line.slice(0, tab), subject: line.slice(tab + 1) };
    });
}

/** Paths git left unmerged (conflicted) in a checkout. */
export async function conflictedPaths(git: SafeGit): Promise<string[]> {
  const unmerged = await git.run(['diff', '--name-only', '--diff-filter=U'], { allowFail: true });
  return [...new Set(unmerged.stdout.split('\n').filter((p) => p !== ''))];
}

/** `.meta` of the session's workspace inside the worktree (the host's own files), as an exclude pathspec. */
export function notMetaPathspec(worktreePath: string, workspace: string): string {
  const sub = relative(worktreePath, workspace);
  return `:(exclude)${sub === '' ? '' : `${sub.split(sep).join('/')}/`}.meta`;
}

export { GitCommandError };
