import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { DiscardPlan, MergeMode, MergeResult, WorktreeCommit, WorktreeStatus } from '../../../src-preload/contract';
import { DomainError } from '../base/domainError';
import { SafeGit } from '../base/safeGit';
import type { Ledger } from '../ledger/ledger';
import type { SessionService, StoredWorktree } from '../sessions/sessionService';
import { commitsNotIn, conflictedPaths, notMetaPathspec, uncommittedFiles } from './worktreeGit';

const PURPOSE = 'a worktree session needs git';

/**
 * A worktree session back to its base (docs/worktrees.md): commit, merge into the base branch, discard. Each is one
 * ledger entry. Every git call runs with the host's safe settings (base/safeGit.ts) and refuses a repository whose
 * config names a command, as agents can write the worktree's files and the repository's .git.
 */
export class WorktreeService {
  constructor(
    private readonly sessions: SessionService,
    private readonly ledger: Ledger,
  ) {}

  async status(sessionId: string): Promise<WorktreeStatus> {
    const tree = this.worktree(sessionId);
    const exists = existsSync(tree.path);
    if (!exists) return { sessionId, ...tree, exists, uncommitted: [], ahead: 0 };
    const git = new SafeGit(tree.path, PURPOSE);
    // status compares file contents through clean filters: a planted one is refused first.
    await git.refusePlantedCommands('while it reads the worktree');
    return { sessionId, ...tree, exists, uncommitted: await uncommittedFiles(git), ahead: (await commitsNotIn(git, tree.branch, tree.base)).length };
  }

  /** Stages every change of the worktree (but the session's .meta) and commits it with the user's message. */
  async commit(sessionId: string, message: string, actor: string): Promise<WorktreeCommit> {
    const tree = this.existingWorktree(sessionId);
    const git = new SafeGit(tree.path, PURPOSE);
    await git.refusePlantedCommands('while it commits the worktree');
    const notMeta = notMetaPathspec(tree.path, this.sessions.get(sessionId).workspace);
    await git.run(['add', '-A', '--', '.', notMeta]);
    const staged = await git.run(['diff', '--cached', '--quiet', '--no-ext-diff', '--no-textconv'], { allowFail: true });
    if (staged.code === 0) throw new DomainError('state', `the worktree of branch ${tree.branch} has no changes to commit`);
    await git.run([...(await git.identityConfig()), 'commit', '-q', '--no-verify', '-m', message]);
    const id = (await git.run(['rev-parse', 'HEAD'])).stdout.trim();
    const subject = (await git.run(['log', '-1', '--format=%s', id])).stdout.trim();
    this.ledger.append({ type: 'worktree.commit', actor, sessionId, payload: { branch: tree.branch, commit: id } });
    return { id, subject };
  }

  /**
   * Merges the session's branch into its base branch in the repository's checkout, which must have the base branch
   * checked out and no uncommitted changes to tracked files (the merge would mix with them). Conflicts: the merge is
   * aborted, nothing is rewritten, and the conflicting paths are the answer.
   */
  async merge(sessionId: string, mode: MergeMode, actor: string): Promise<MergeResult> {
    const tree = this.existingWorktree(sessionId);
    const inTree = new SafeGit(tree.path, PURPOSE);
    await inTree.refusePlantedCommands('while it merges the worktree');
    const pending = await uncommittedFiles(inTree);
    if (pending.length > 0) {
      throw new DomainError('state', `the worktree has ${pending.length} uncommitted file(s) (${excerpt(pending)}); commit them first (Commit…) or they stay out of the merge`);
    }
    const base = new SafeGit(tree.repo, PURPOSE);
    if (!existsSync(tree.repo)) throw new DomainError('not_found', `the repository checkout ${tree.repo} does not exist any more`);
    const head = await base.run(['symbolic-ref', '--short', '-q', 'HEAD'], { allowFail: true });
    const checkedOut = head.code === 0 ? head.stdout.trim() : null;
    if (checkedOut !== tree.base) {
      throw new DomainError(
        'state',
        `the merge runs in ${tree.repo}, which has ${checkedOut ? `the branch "${checkedOut}"` : 'a detached HEAD'} checked out, not "${tree.base}": run "git switch ${tree.base}" there, then merge again`,
      );
    }
    const dirty = await uncommittedFiles(base, 'no');
    if (dirty.length > 0) {
      throw new DomainError('state', `${tree.repo} has uncommitted changes (${excerpt(dirty)}); commit or stash them there first, then merge again (a merge must not mix with them)`);
    }
    const identity = await base.identityConfig();
    const branchRef = `refs/heads/${tree.branch}`;
    if (mode === 'fast-forward') {
      const result = await base.run(['merge', '--ff-only', '-q', '--no-edit', branchRef], { allowFail: true });
      if (result.code !== 0) {
        const canFastForward = (await base.run(['merge-base', '--is-ancestor', `refs/heads/${tree.base}`, branchRef], { allowFail: true })).code === 0;
        if (!canFastForward) {
          throw new DomainError('conflict', `"${tree.base}" has commits that ${tree.branch} does not, so it cannot fast-forward; merge with a merge commit instead (nothing was changed)`);
        }
        throw refusedMerge(tree.repo, result);
      }
    } else {
      const message = `Merge ${tree.branch} into ${tree.base}\n\nSession ${this.sessions.get(sessionId).name} (${sessionId}).`;
      const result = await base.run([...identity, 'merge', '--no-ff', '--no-edit', '-q', '-m', message, branchRef], { allowFail: true });
      if (result.code !== 0) {
        const paths = await conflictedPaths(base);
        await base.run(['merge', '--abort'], { allowFail: true });
        if (paths.length === 0) throw refusedMerge(tree.repo, result);
        this.ledger.append({ type: 'worktree.merge', actor, sessionId, payload: { branch: tree.branch, base: tree.base, mode, conflicts: paths } });
        return { kind: 'conflicts', paths };
      }
    }
    const commit = (await base.run(['rev-parse', 'HEAD'])).stdout.trim();
    this.ledger.append({ type: 'worktree.merge', actor, sessionId, payload: { branch: tree.branch, base: tree.base, mode, commit } });
    return { kind: 'merged', mode, commit };
  }

  /** Exactly what discarding would lose: uncommitted files of the worktree and the branch's commits not in the base. */
  async discardPlan(sessionId: string): Promise<DiscardPlan> {
    const tree = this.worktree(sessionId);
    if (!existsSync(tree.repo)) {
      throw new DomainError('not_found', `the repository checkout ${tree.repo} does not exist any more, so git cannot remove its worktree; delete ${tree.path} yourself`);
    }
    const repo = new SafeGit(tree.repo, PURPOSE);
    const uncommitted = existsSync(tree.path) ? await this.uncommittedIn(tree) : [];
    const branchExists = (await repo.run(['show-ref', '--verify', '--quiet', `refs/heads/${tree.branch}`], { allowFail: true })).code === 0;
    const commits = branchExists ? await commitsNotIn(repo, tree.branch, tree.base) : [];
    const token = createHash('sha256').update(JSON.stringify({ uncommitted, commits, path: tree.path })).digest('hex').slice(0, 32);
    return { uncommitted, commits, token };
  }

  /**
   * Closes the session (what runs in it stops first), removes its worktree and deletes its branch. `token` is the plan
   * the user confirmed: if the worktree changed since, nothing is removed and the user is asked to look again.
   */
  async discard(sessionId: string, token: string, actor: string): Promise<{ removed: string; deletedBranch: string }> {
    const tree = this.worktree(sessionId);
    const plan = await this.discardPlan(sessionId);
    if (plan.token !== token) throw new DomainError('conflict', 'the worktree changed since you reviewed what would be lost; review it again, then discard');
    if (this.sessions.get(sessionId).status === 'open') await this.sessions.close(sessionId, actor);
    const repo = new SafeGit(tree.repo, PURPOSE);
    if (existsSync(tree.path)) await repo.run(['worktree', 'remove', '--force', '--force', '--', tree.path]);
    await repo.run(['worktree', 'prune'], { allowFail: true });
    const branchExists = (await repo.run(['show-ref', '--verify', '--quiet', `refs/heads/${tree.branch}`], { allowFail: true })).code === 0;
    if (branchExists) await repo.run(['branch', '-D', '-q', '--', tree.branch]);
    this.ledger.append({ type: 'worktree.discard', actor, sessionId, payload: { branch: tree.branch, path: tree.path, lost: { uncommitted: plan.uncommitted, commits: plan.commits.map((c) => c.id) } } });
    return { removed: tree.path, deletedBranch: tree.branch };
  }

  private async uncommittedIn(tree: StoredWorktree): Promise<string[]> {
    const git = new SafeGit(tree.path, PURPOSE);
    await git.refusePlantedCommands('while it reads the worktree');
    return uncommittedFiles(git);
  }

  private worktree(sessionId: string): StoredWorktree {
    const tree = this.sessions.worktreeOf(sessionId);
    if (!tree) throw new DomainError('state', `session ${this.sessions.get(sessionId).name} works in its folder, not in a worktree: there is no branch to commit, merge or discard`);
    return tree;
  }

  private existingWorktree(sessionId: string): StoredWorktree {
    const tree = this.worktree(sessionId);
    if (!existsSync(tree.path)) throw new DomainError('state', `the worktree of branch ${tree.branch} (${tree.path}) was removed; nothing to commit or merge`);
    return tree;
  }
}

/**
 * git refused the merge before changing anything, for a reason other than conflicts: most often an untracked file in
 * the checkout that the merge would overwrite. Its own words say which files.
 */
function refusedMerge(repo: string, result: { stderr: string; stdout: string }): DomainError {
  const said = `${result.stderr}${result.stdout}`.trim().split('\n').slice(0, 12).join('\n');
  return new DomainError('state', `git refused the merge in ${repo}, nothing was changed: ${said || 'no message'}; move those files away (or commit them there) and merge again`);
}

function excerpt(lines: readonly string[]): string {
  return lines.length > 5 ? `${lines.slice(0, 5).join(', ')}, …` : lines.join(', ');
}
