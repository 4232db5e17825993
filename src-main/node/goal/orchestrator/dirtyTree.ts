import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DIRTY_TREE_COMMIT_MESSAGE, DIRTY_TREE_FIELD, DIRTY_TREE_REFERENCE, type DirtyTreeAnswer } from '../../../../src-preload/contract/goal';
import { DomainError } from '../../base/domainError';
import type { WorkspaceGit } from './workspaceGit';

/** The question names at most this many files (the count says how many there are in all). */
const MAX_LISTED = 200;

/**
 * The workspace has changes the user has not committed, and the goal run (which commits each task) was not told what
 * to do with them. The UI asks: commit them / stash them / run in a new worktree (contract goal.ts DirtyTreeAnswer),
 * then starts the run again with the answer. Nothing was committed, stashed or created.
 */
export class DirtyTreeError extends DomainError {
  constructor(
    readonly files: readonly string[],
    readonly total: number,
  ) {
    super(
      'state',
      `the workspace has ${total} uncommitted file(s) (${files.slice(0, 5).join(', ')}${total > 5 ? ', …' : ''}), and a goal run commits each task: ` +
        `choose whether to commit them first (as "${DIRTY_TREE_COMMIT_MESSAGE}"), stash them, or run in a new worktree; nothing was changed`,
      { reference: DIRTY_TREE_REFERENCE, issues: files.map((file) => ({ path: DIRTY_TREE_FIELD, message: file })) },
    );
    this.name = 'DirtyTreeError';
  }
}

/**
 * What the run would mix with its commits: `git status` of the workspace (outside .meta) in a repository; in a folder
 * that is not one yet, its files (every one would go into the first commit). Read-only: no repository is created.
 */
export async function uncommittedWork(git: WorkspaceGit): Promise<{ inRepo: boolean; files: string[]; total: number }> {
  if (await git.isRepo()) {
    const files = await git.dirtyFiles();
    return { inRepo: true, files: files.slice(0, MAX_LISTED), total: files.length };
  }
  const files = filesOutsideMeta(git.workspace);
  return { inRepo: false, files: files.slice(0, MAX_LISTED), total: files.length };
}

/**
 * Throws DirtyTreeError when there is uncommitted work and no answer; refuses answers that cannot work here (a stash
 * or a worktree needs a repository with a commit).
 */
export async function checkDirtyTree(git: WorkspaceGit, answer: DirtyTreeAnswer | undefined): Promise<'clean' | DirtyTreeAnswer> {
  const work = await uncommittedWork(git);
  if (work.total === 0) return 'clean';
  if (!answer) throw new DirtyTreeError(work.files, work.total);
  if (!work.inRepo && answer !== 'commit') {
    throw new DomainError('state', `the workspace is not a git repository yet, so its files cannot be ${answer === 'stash' ? 'stashed' : 'put in a worktree'}: commit them (a repository is created) or make it a repository yourself first`);
  }
  return answer;
}

/** Files (not folders, not following links) under `root`, .meta and .git left out; stops after one more than MAX_LISTED. */
function filesOutsideMeta(root: string): string[] {
  const found: string[] = [];
  const queue: string[] = [''];
  while (queue.length > 0 && found.length <= MAX_LISTED) {
    const dir = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (dir === '' && (entry.name === '.meta' || entry.name === '.git')) continue;
      if (entry.isDirectory()) queue.push(path);
      else found.push(`?? ${path}`);
    }
  }
  return found;
}
