import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { WorktreeFixture } from './worktreeFixture';

describe('worktree sessions', () => {
  let fx: WorktreeFixture;
  afterEach(() => fx.dispose());

  it('two sessions on one repository write the same path and neither sees the other’s file', async () => {
    fx = new WorktreeFixture();
    const a = await fx.sessions.createInWorktree(fx.repo, 'Feature A', 'main', 'user');
    const b = await fx.sessions.createInWorktree(fx.repo, 'Feature A', 'main', 'user');
    assert.deepEqual(a.worktree, { repo: realpathSync(fx.repo), branch: 'omni/Feature-A', base: 'main' });
    assert.equal(b.worktree!.branch, 'omni/Feature-A-2', 'a taken branch name gets -2');
    assert.equal(a.workspace, realpathSync(join(fx.home, 'worktrees', a.id)));
    assert.notEqual(a.workspace, b.workspace);

    writeFileSync(join(a.workspace, 'notes.txt'), 'from A\n');
    writeFileSync(join(b.workspace, 'notes.txt'), 'from B\n');
    assert.equal(readFileSync(join(a.workspace, 'notes.txt'), 'utf8'), 'from A\n');
    assert.equal(readFileSync(join(b.workspace, 'notes.txt'), 'utf8'), 'from B\n');
    assert.equal(existsSync(join(fx.repo, 'notes.txt')), false, 'the user’s checkout does not see either');
    assert.deepEqual((await fx.worktrees.status(a.id)).uncommitted, ['?? notes.txt']);
    assert.equal(fx.git(fx.repo, 'status', '--porcelain'), '');

    // Stored and listed again as it was made.
    assert.deepEqual(fx.sessions.get(a.id).worktree, a.worktree);
    assert.equal(fx.sessions.get(a.id).workspace, a.workspace);
    assert.equal(fx.sessions.create(fx.repo, 'plain', 'user').worktree, null);
  });

  it('a sub-folder of the repository becomes the same sub-folder inside the worktree', async () => {
    fx = new WorktreeFixture();
    mkdirSync(join(fx.repo, 'pkg', 'web'), { recursive: true });
    writeFileSync(join(fx.repo, 'pkg', 'web', 'index.ts'), 'export {};\n');
    fx.git(fx.repo, 'add', '.');
    fx.git(fx.repo, 'commit', '-q', '-m', 'web');
    const session = await fx.sessions.createInWorktree(join(fx.repo, 'pkg', 'web'), 'web', 'main', 'user');
    assert.equal(session.workspace, realpathSync(join(fx.home, 'worktrees', session.id, 'pkg', 'web')));
    assert.equal(readFileSync(join(session.workspace, 'index.ts'), 'utf8'), 'export {};\n');
  });

  it('commit then fast-forward merge brings the work to the base branch, each one ledger entry', async () => {
    fx = new WorktreeFixture();
    const s = await fx.sessions.createInWorktree(fx.repo, 'ff', 'main', 'user');
    writeFileSync(join(s.workspace, 'feature.txt'), 'done\n');
    const commit = await fx.worktrees.commit(s.id, 'Add the feature', 'user');
    assert.equal(commit.subject, 'Add the feature');
    assert.equal(fx.git(s.workspace, 'log', '-1', '--format=%an <%ae>'), 'Dev <dev@example.invalid>', 'the user’s git identity');
    assert.equal((await fx.worktrees.status(s.id)).ahead, 1);

    const merged = await fx.worktrees.merge(s.id, 'fast-forward', 'user');
    assert.deepEqual(merged, { kind: 'merged', mode: 'fast-forward', commit: commit.id });
    assert.equal(fx.git(fx.repo, 'rev-parse', 'main'), commit.id);
    assert.equal(readFileSync(join(fx.repo, 'feature.txt'), 'utf8'), 'done\n');
    assert.deepEqual(fx.ledgerTypes(s.id), ['session.create', 'worktree.commit', 'worktree.merge']);
  });

  it('a merge commit when the base moved on; fast-forward then refuses and changes nothing', async () => {
    fx = new WorktreeFixture();
    const s = await fx.sessions.createInWorktree(fx.repo, 'mc', 'main', 'user');
    writeFileSync(join(s.workspace, 'a.txt'), 'a\n');
    await fx.worktrees.commit(s.id, 'a', 'user');
    writeFileSync(join(fx.repo, 'b.txt'), 'b\n');
    fx.git(fx.repo, 'add', 'b.txt');
    fx.git(fx.repo, 'commit', '-q', '-m', 'b on main');
    const mainBefore = fx.git(fx.repo, 'rev-parse', 'main');

    await assert.rejects(fx.worktrees.merge(s.id, 'fast-forward', 'user'), /cannot fast-forward; merge with a merge commit instead/);
    assert.equal(fx.git(fx.repo, 'rev-parse', 'main'), mainBefore);

    const merged = await fx.worktrees.merge(s.id, 'merge-commit', 'user');
    assert.equal(merged.kind, 'merged');
    assert.equal(fx.git(fx.repo, 'rev-parse', 'main'), merged.kind === 'merged' ? merged.commit : '');
    assert.equal(fx.git(fx.repo, 'rev-list', '--parents', '-n', '1', 'main').split(' ').length, 3, 'two parents');
    assert.ok(existsSync(join(fx.repo, 'a.txt')) && existsSync(join(fx.repo, 'b.txt')));
  });

  it('a conflicting merge is aborted: conflicts listed, base branch and both checkouts unchanged', async () => {
    fx = new WorktreeFixture();
    const s = await fx.sessions.createInWorktree(fx.repo, 'conflict', 'main', 'user');
    writeFileSync(join(s.workspace, 'README.md'), 'from the session\n');
    await fx.worktrees.commit(s.id, 'session edit', 'user');
    writeFileSync(join(fx.repo, 'README.md'), 'from main\n');
    fx.git(fx.repo, 'commit', '-q', '-am', 'main edit');
    const mainBefore = fx.git(fx.repo, 'rev-parse', 'main');
    const branchBefore = fx.git(fx.repo, 'rev-parse', s.worktree!.branch);

    const result = await fx.worktrees.merge(s.id, 'merge-commit', 'user');

    assert.deepEqual(result, { kind: 'conflicts', paths: ['README.md'] });
    assert.equal(fx.git(fx.repo, 'rev-parse', 'main'), mainBefore);
    assert.equal(fx.git(fx.repo, 'rev-parse', s.worktree!.branch), branchBefore);
    assert.equal(fx.git(fx.repo, 'status', '--porcelain'), '', 'the user’s checkout is clean, no merge in progress');
    assert.equal(existsSync(join(fx.repo, '.git', 'MERGE_HEAD')), false);
    assert.equal(readFileSync(join(fx.repo, 'README.md'), 'utf8'), 'from main\n');
    assert.equal(readFileSync(join(s.workspace, 'README.md'), 'utf8'), 'from the session\n');
    assert.equal(fx.git(s.workspace, 'status', '--porcelain'), '');
  });

  it('merge refuses when the checkout has another branch out or uncommitted changes, saying what to do', async () => {
    fx = new WorktreeFixture();
    const s = await fx.sessions.createInWorktree(fx.repo, 'refuse', 'main', 'user');
    writeFileSync(join(s.workspace, 'x.txt'), 'x\n');
    await assert.rejects(fx.worktrees.merge(s.id, 'fast-forward', 'user'), /uncommitted file\(s\) \(\?\? x\.txt\); commit them first/);
    await fx.worktrees.commit(s.id, 'x', 'user');
    writeFileSync(join(fx.repo, 'README.md'), 'user is editing\n');
    await assert.rejects(fx.worktrees.merge(s.id, 'fast-forward', 'user'), /has uncommitted changes \( M README\.md\); commit or stash them there first/);
    fx.git(fx.repo, 'checkout', '-q', '--', 'README.md');
    fx.git(fx.repo, 'switch', '-q', '-c', 'other');
    await assert.rejects(fx.worktrees.merge(s.id, 'fast-forward', 'user'), /has the branch "other" checked out, not "main": run "git switch main" there/);
  });

  it('a merge that would overwrite an untracked file of the checkout is refused in git’s words, nothing changed', async () => {
    fx = new WorktreeFixture();
    const s = await fx.sessions.createInWorktree(fx.repo, 'untracked', 'main', 'user');
    writeFileSync(join(s.workspace, 'new.txt'), 'from the session\n');
    await fx.worktrees.commit(s.id, 'new file', 'user');
    writeFileSync(join(fx.repo, 'new.txt'), 'the user’s own, untracked\n');
    const mainBefore = fx.git(fx.repo, 'rev-parse', 'main');
    for (const mode of ['fast-forward', 'merge-commit'] as const) {
      await assert.rejects(fx.worktrees.merge(s.id, mode, 'user'), /git refused the merge in .*nothing was changed: [\s\S]*new\.txt[\s\S]*move those files away/);
      assert.equal(fx.git(fx.repo, 'rev-parse', 'main'), mainBefore);
      assert.equal(readFileSync(join(fx.repo, 'new.txt'), 'utf8'), 'the user’s own, untracked\n');
    }
  });

  it('discard lists exactly what would be lost, then removes the worktree and deletes the branch', async () => {
    fx = new WorktreeFixture();
    const s = await fx.sessions.createInWorktree(fx.repo, 'throwaway', 'main', 'user');
    writeFileSync(join(s.workspace, 'kept.txt'), 'committed\n');
    const commit = await fx.worktrees.commit(s.id, 'work to lose', 'user');
    writeFileSync(join(s.workspace, 'draft.txt'), 'uncommitted\n');
    writeFileSync(join(s.workspace, 'README.md'), 'edited\n');

    const plan = await fx.worktrees.discardPlan(s.id);
    assert.deepEqual(plan.uncommitted, [' M README.md', '?? draft.txt']);
    assert.deepEqual(plan.commits, [{ id: commit.id, subject: 'work to lose' }]);

    // The user confirmed a plan; the worktree changed since: nothing is removed.
    writeFileSync(join(s.workspace, 'later.txt'), 'x\n');
    await assert.rejects(fx.worktrees.discard(s.id, plan.token, 'user'), /changed since you reviewed/);
    assert.ok(existsSync(s.workspace));

    const again = await fx.worktrees.discardPlan(s.id);
    const result = await fx.worktrees.discard(s.id, again.token, 'user');
    assert.equal(result.deletedBranch, 'omni/throwaway');
    assert.equal(existsSync(s.workspace), false);
    assert.equal(fx.git(fx.repo, 'branch', '--list', 'omni/throwaway'), '');
    assert.equal(fx.git(fx.repo, 'worktree', 'list', '--porcelain').includes(s.workspace), false);
    assert.equal(fx.sessions.get(s.id).status, 'closed');
    assert.deepEqual(fx.ledgerTypes(s.id), ['session.create', 'worktree.commit', 'session.close', 'worktree.discard']);
  });

  it('closing a session keeps its worktree and branch', async () => {
    fx = new WorktreeFixture();
    const s = await fx.sessions.createInWorktree(fx.repo, 'keep', 'main', 'user');
    writeFileSync(join(s.workspace, 'wip.txt'), 'wip\n');
    await fx.sessions.close(s.id, 'user');
    assert.ok(existsSync(join(s.workspace, 'wip.txt')));
    assert.equal(fx.git(fx.repo, 'branch', '--list', '--format=%(refname:short)', 'omni/keep'), 'omni/keep');
  });

  it('a folder outside a repository, or a base that is no branch, is refused with what to do', async () => {
    fx = new WorktreeFixture();
    const plain = join(fx.dir.path, 'plain');
    mkdirSync(plain);
    await assert.rejects(fx.sessions.createInWorktree(plain, 'p', 'main', 'user'), /is not in a git repository, so it cannot have a worktree; turn "work on a new branch" off/);
    await assert.rejects(fx.sessions.createInWorktree(fx.repo, 'p', 'nope', 'user'), /has no branch "nope" \(branches: main\)/);
    await assert.rejects(fx.sessions.createInWorktree(fx.repo, 'p', '--upload-pack=touch /tmp/x', 'user'), /is not a valid git branch name: it starts with "-"/);
    await assert.rejects(fx.sessions.createInWorktree(fx.repo, 'p', 'a..b', 'user'), /is not a valid git branch name: it contains "\.\."/);
    assert.equal(fx.sessions.list().length, 0, 'no session is created when the worktree is not');
  });
});
