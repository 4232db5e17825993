// What a hostile agent with write access to the workspace (and so to the repository's .git) would try against
// worktree sessions: names that are paths or options, and commands planted in git's config or hooks.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { branchNameProblem, branchSlug } from '../../src-main/node/worktrees/branchName';
import { WorktreeFixture } from './worktreeFixture';

describe('worktree sessions under attack', () => {
  let fx: WorktreeFixture;
  afterEach(() => fx.dispose());

  it('a session name like ../../x, -foo or a..b gives a safe branch under omni/ and a path under the app home', async () => {
    fx = new WorktreeFixture();
    for (const [name, branch] of [
      ['../../x', 'omni/x'],
      ['-foo', 'omni/foo'],
      ['a..b', 'omni/a.b'],
      ['x.lock', 'omni/x'],
      ['@{-1}', 'omni/1'],
      ['--upload-pack=evil', 'omni/upload-pack-evil'],
      ['..', 'omni/session'],
      ['feat/thing one', 'omni/feat-thing-one'],
    ] as const) {
      const session = await fx.sessions.createInWorktree(fx.repo, name, 'main', 'user');
      assert.equal(session.worktree!.branch.replace(/-\d+$/, ''), branch, name);
      assert.equal(branchNameProblem(session.worktree!.branch), null);
      assert.ok(session.workspace.startsWith(join(fx.home, 'worktrees') + '/'), `${name}: ${session.workspace}`);
    }
    // Nothing was created outside the app home's worktrees folder.
    assert.deepEqual(readdirSync(fx.dir.path).sort(), ['home', 'repo']);
    assert.equal(branchSlug('a/../../b'), 'a-.-.-b');
  });

  it('a filter planted in .git/config never runs: the worktree is refused, then commit and merge are', async () => {
    fx = new WorktreeFixture();
    const marker = join(fx.dir.path, 'pwned');
    writeFileSync(join(fx.repo, '.gitattributes'), '* filter=planted\n');
    fx.git(fx.repo, 'add', '.gitattributes');
    fx.git(fx.repo, 'commit', '-q', '-m', 'attributes');
    const session = await fx.sessions.createInWorktree(fx.repo, 'before', 'main', 'user');
    fx.git(fx.repo, 'config', 'filter.planted.smudge', `touch ${marker}; cat`);
    fx.git(fx.repo, 'config', 'filter.planted.clean', `touch ${marker}; cat`);

    await assert.rejects(fx.sessions.createInWorktree(fx.repo, 'after', 'main', 'user'), /\.git\/config sets filter\.planted\.(clean|smudge).*while it checks out the new worktree/);
    writeFileSync(join(session.workspace, 'f.txt'), 'x\n');
    await assert.rejects(fx.worktrees.commit(session.id, 'msg', 'user'), /filter\.planted/);
    await assert.rejects(fx.worktrees.merge(session.id, 'merge-commit', 'user'), /filter\.planted/);
    assert.equal(existsSync(marker), false, 'the planted command never ran');
  });

  it('a filter planted in the worktree’s own config (extensions.worktreeConfig) is refused too', async () => {
    fx = new WorktreeFixture();
    const marker = join(fx.dir.path, 'pwned');
    const session = await fx.sessions.createInWorktree(fx.repo, 'wt', 'main', 'user');
    fx.git(session.workspace, 'config', 'extensions.worktreeConfig', 'true');
    fx.git(session.workspace, 'config', '--worktree', 'filter.planted.clean', `touch ${marker}; cat`);
    writeFileSync(join(session.workspace, '.gitattributes'), '* filter=planted\n');
    await assert.rejects(fx.worktrees.commit(session.id, 'msg', 'user'), /filter\.planted\.clean/);
    assert.equal(existsSync(marker), false);
  });

  it('discard removes a symlink the agent planted in the worktree, never what it points to', async () => {
    fx = new WorktreeFixture();
    const outside = join(fx.dir.path, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'precious.txt'), 'keep me\n');
    const session = await fx.sessions.createInWorktree(fx.repo, 'links', 'main', 'user');
    symlinkSync(outside, join(session.workspace, 'escape'));
    symlinkSync(join(outside, 'precious.txt'), join(session.workspace, 'file-link'));
    const plan = await fx.worktrees.discardPlan(session.id);
    assert.deepEqual(plan.uncommitted, ['?? escape', '?? file-link']);
    await fx.worktrees.discard(session.id, plan.token, 'user');
    assert.equal(existsSync(session.workspace), false);
    assert.equal(readFileSync(join(outside, 'precious.txt'), 'utf8'), 'keep me\n');
  });

  it('planted hooks (.git/hooks and a local core.hooksPath) never run during worktree add, commit or merge', async () => {
    fx = new WorktreeFixture();
    const marker = join(fx.dir.path, 'hooked');
    const hook = `#!/bin/sh\necho "$0" >> ${marker}\n`;
    const hooksDir = join(fx.dir.path, 'evil-hooks');
    mkdirSync(hooksDir);
    for (const name of ['post-checkout', 'pre-commit', 'commit-msg', 'post-commit', 'pre-merge-commit', 'post-merge', 'reference-transaction']) {
      for (const dir of [join(fx.repo, '.git', 'hooks'), hooksDir]) {
        writeFileSync(join(dir, name), hook);
        chmodSync(join(dir, name), 0o755);
      }
    }
    fx.git(fx.repo, 'config', 'core.hooksPath', hooksDir);

    const session = await fx.sessions.createInWorktree(fx.repo, 'hooks', 'main', 'user');
    writeFileSync(join(session.workspace, 'f.txt'), 'x\n');
    await fx.worktrees.commit(session.id, 'msg', 'user');
    writeFileSync(join(fx.repo, 'g.txt'), 'g\n');
    // The user's own commit (outside the app) would run hooks; only the host's calls are checked here.
    fx.git(fx.repo, '-c', 'core.hooksPath=/dev/null', 'add', 'g.txt');
    fx.git(fx.repo, '-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'g');
    assert.equal((await fx.worktrees.merge(session.id, 'merge-commit', 'user')).kind, 'merged');
    const plan = await fx.worktrees.discardPlan(session.id);
    await fx.worktrees.discard(session.id, plan.token, 'user');
    assert.equal(existsSync(marker), false, 'no hook ran');
  });
});
