import { GitCommandError, SafeGit } from '../../base/safeGit';

// The errors are the shared git runner's (base/safeGit.ts); goal code and its tests name them from here.
export { GitCommandError, GitConfigRefusedError, GitMissingError } from '../../base/safeGit';

/** .meta is the host's own (session.json changes at every step): never part of a task's commit or its revert. */
const NOT_META = ':(exclude).meta';

/** The workspace's git repository, as the orchestrator uses it: one commit per task attempt, reverts for rollback. */
export class WorkspaceGit {
  private readonly git: SafeGit;

  constructor(readonly workspace: string) {
    this.git = new SafeGit(workspace);
  }

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

  /** Whether the workspace is inside a git repository (read-only: nothing is created). */
  async isRepo(): Promise<boolean> {
    const inside = await this.run(['rev-parse', '--is-inside-work-tree'], { allowFail: true });
    return inside.code === 0 && inside.stdout.trim() === 'true';
  }

  /** The workspace's uncommitted files (outside .meta), as `git status --porcelain` names them: "XY path". */
  async dirtyFiles(): Promise<string[]> {
    await this.refusePlantedCommands();
    const status = await this.run(['status', '--porcelain', '--untracked-files=all', '--', '.', NOT_META]);
    return status.stdout.split('\n').filter((line) => line.trim() !== '');
  }

  /**
   * Puts the workspace's uncommitted changes (untracked files included, .meta excluded) on git's stash with
   * `message`, so the user gets them back with `git stash pop`; the stash ref, or null when there was nothing.
   */
  async stash(message: string): Promise<string | null> {
    await this.refusePlantedCommands();
    if (!(await this.isDirty())) return null;
    await this.run([...(await this.identityConfig()), 'stash', 'push', '--include-untracked', '-q', '-m', message, '--', '.', NOT_META]);
    return (await this.run(['rev-parse', 'stash@{0}'])).stdout.trim();
  }

  /**
   * `git show --stat` and the patch of one commit, which must be in HEAD's history: what a task's commit changed. The
   * patch stops at `maxPatchBytes` (`truncated`): an agent's commit may hold a huge generated file.
   */
  async show(commit: string, maxPatchBytes: number): Promise<{ commit: string; stat: string; patch: string; truncated: boolean }> {
    const full = (await this.run(['rev-parse', '--verify', '--quiet', `${commit}^{commit}`], { allowFail: true })).stdout.trim();
    if (!full || !(await this.isInHistory(full))) return Promise.reject(new GitCommandError(['show', commit], 'not a commit of this workspace'));
    // No textconv or external diff: a planted one would run a command.
    const stat = await this.run(['show', '--no-ext-diff', '--no-textconv', '--format=%H%n%an <%ae>%n%ad%n%n%B', '--stat', full]);
    const patch = await this.git.run(['show', '--no-ext-diff', '--no-textconv', '--format=', '--patch', full], { maxBytes: maxPatchBytes, truncate: true });
    return { commit: full, stat: stat.stdout, patch: patch.stdout, truncated: patch.truncated === true };
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

  private refusePlantedCommands(): Promise<void> {
    return this.git.refusePlantedCommands();
  }

  private identityConfig(): Promise<string[]> {
    return this.git.identityConfig();
  }

  private run(args: readonly string[], options: { allowFail?: boolean } = {}) {
    return this.git.run(args, options);
  }
}
