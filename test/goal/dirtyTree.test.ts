// A goal run commits each task: on a workspace with the user's uncommitted work it asks first, and nothing is
// committed (stashed, created) until the user answered. Real git repositories, real SQLite, scripted agents.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { DIRTY_TREE_COMMIT_MESSAGE, DIRTY_TREE_FIELD, RpcError } from '../../src-preload/contract';
import { toRpcError } from '../../src-main/node/handlerErrors';
import { GoalRunFixture, ok, SESSION, writes } from './orchestrator/goalRunFixture';

const PLAN = '# P\n\n## Plan\n- [01] Build\n';
const pass = () => ok('PASS');

/** A workspace that is a repository with one commit, then the user's uncommitted edits. */
function dirtyRepo(): GoalRunFixture {
  const fx = new GoalRunFixture({ executor: writes({ 'built.txt': 'built\n' }), verifier: pass });
  fx.git('init', '-q', '-b', 'main');
  fx.git('config', 'user.email', 'dev@example.invalid');
  fx.git('config', 'user.name', 'Dev');
  writeFileSync(join(fx.workspace, 'app.txt'), 'v1\n');
  fx.git('add', 'app.txt');
  fx.git('commit', '-q', '-m', 'mine');
  fx.writeContext(PLAN);
  writeFileSync(join(fx.workspace, 'app.txt'), 'v2, not committed\n');
  writeFileSync(join(fx.workspace, 'notes.txt'), 'new, untracked\n');
  return fx;
}

function whatTheClientSees(error: unknown): RpcError {
  const wire = toRpcError('goal.start', error, () => assert.fail(`not a domain error: ${String(error)}`));
  assert.ok(wire instanceof RpcError);
  return wire;
}

describe('goal run on a dirty tree', () => {
  let fx: GoalRunFixture;
  afterEach(() => fx.dispose());

  it('asks with a typed question listing the files; git log shows no new commit, the index is unchanged', async () => {
    fx = dirtyRepo();
    fx.start();
    const head = fx.git('rev-parse', 'HEAD');
    const status = fx.git('status', '--porcelain');
    const error = await fx.orchestrator.start(SESSION, 'user').then(
      () => assert.fail('expected the question'),
      (e: unknown) => e,
    );
    const wire = whatTheClientSees(error);
    assert.equal(wire.code, 'INVALID_STATE');
    assert.match(wire.message, /uncommitted file\(s\).*choose whether to commit them first.*\[DIRTY_TREE\]$/);
    assert.deepEqual(
      wire.issues?.filter((i) => i.path === DIRTY_TREE_FIELD).map((i) => i.message),
      [' M app.txt', '?? notes.txt'],
    );
    assert.equal(fx.git('rev-parse', 'HEAD'), head, 'no commit');
    assert.equal(fx.git('status', '--porcelain'), status, 'index and files as they were');
    assert.equal(fx.git('stash', 'list'), '');
    assert.equal(fx.calls.length, 0, 'no agent ran');
  });

  it('"commit" commits exactly the user’s work, with the message the UI showed, then runs', async () => {
    fx = dirtyRepo();
    fx.start();
    const view = await fx.run('commit');
    assert.equal(view.phase, 'done', view.message ?? '');
    const subjects = fx.git('log', '--format=%s').split('\n');
    assert.deepEqual(subjects, ['Task 01: Build', DIRTY_TREE_COMMIT_MESSAGE, 'mine']);
    assert.equal(fx.git('show', '--name-only', '--format=', 'HEAD~1'), 'app.txt\nnotes.txt');
    assert.equal(fx.git('log', '-1', '--format=%an', 'HEAD~1'), 'Dev', 'the user’s identity, because the user said so');
  });

  it('"stash" stashes the user’s work (back with git stash pop), commits nothing of it, then runs', async () => {
    fx = dirtyRepo();
    fx.start();
    const view = await fx.run('stash');
    assert.equal(view.phase, 'done', view.message ?? '');
    assert.deepEqual(fx.git('log', '--format=%s').split('\n'), ['Task 01: Build', 'mine']);
    assert.match(fx.git('stash', 'list'), /Omniscient Shell: before the goal run/);
    assert.equal(readFileSync(join(fx.workspace, 'app.txt'), 'utf8'), 'v1\n');
    fx.git('stash', 'pop', '-q');
    assert.equal(readFileSync(join(fx.workspace, 'app.txt'), 'utf8'), 'v2, not committed\n');
    assert.ok(existsSync(join(fx.workspace, 'notes.txt')));
  });

  it('"worktree" without a host that makes worktree sessions is refused, nothing touched', async () => {
    fx = dirtyRepo();
    fx.start();
    const head = fx.git('rev-parse', 'HEAD');
    await assert.rejects(fx.orchestrator.start(SESSION, 'user', 'worktree'), /cannot make worktree sessions/);
    assert.equal(fx.git('rev-parse', 'HEAD'), head);
  });

  it('no plan: an error, and the repository untouched (no commit, index unchanged) even with an answer', async () => {
    fx = dirtyRepo();
    fx.writeContext('# Only a goal, no plan section\n');
    fx.start({ planner: 'deterministic' });
    const head = fx.git('rev-parse', 'HEAD');
    const status = fx.git('status', '--porcelain');
    await assert.rejects(fx.orchestrator.start(SESSION, 'user', 'commit'), { message: /^\.meta\/context\.md/ });
    assert.equal(fx.git('rev-parse', 'HEAD'), head);
    assert.equal(fx.git('status', '--porcelain'), status);
  });

  it('an LLM planner that fails leaves the repository untouched even when the user answered "commit"', async () => {
    fx = new GoalRunFixture({ planner: () => ok('not json at all'), executor: writes({}), verifier: pass });
    fx.git('init', '-q', '-b', 'main');
    writeFileSync(join(fx.workspace, 'a.txt'), 'a\n');
    fx.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'a.txt');
    fx.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'a');
    fx.writeContext('# Goal without a plan section\n');
    writeFileSync(join(fx.workspace, 'a.txt'), 'edited\n');
    fx.start();
    const head = fx.git('rev-parse', 'HEAD');
    const view = await fx.run('commit');
    assert.equal(view.phase, 'failed');
    assert.equal(fx.git('rev-parse', 'HEAD'), head, 'the plan failed before the commit');
    assert.equal(fx.git('status', '--porcelain', '--', '.', ':(exclude).meta'), 'M a.txt');
  });
});

describe('rolling back a task', () => {
  let fx: GoalRunFixture;
  afterEach(() => fx.dispose());

  it('marks the tasks that depend on it, transitively, stale; the next run executes them again', async () => {
    const executed: string[] = [];
    fx = new GoalRunFixture({
      executor: (call, workspace) => {
        const id = /\n\nTask (\d+): /.exec(call.message)![1];
        executed.push(id);
        // Only task 01 changes files; 02 and 03 build on it without changing any (no commits of their own).
        if (id === '01') writeFileSync(join(workspace, 'base.txt'), `base ${executed.length}\n`);
        return ok();
      },
      verifier: pass,
    });
    fx.writeContext('# P\n\n## Plan\n- [01] Base\n- [02] On base (after 01)\n- [03] On 02 (after 02)\n- [04] Alone\n');
    fx.start();
    assert.equal((await fx.run()).phase, 'done');

    await fx.orchestrator.rollback(SESSION, '01', 'user');

    const state = (await fx.meta.read())!;
    assert.deepEqual(state.plan!.tasks.map((t) => [t.id, t.status]), [['01', 'pending'], ['02', 'stale'], ['03', 'stale'], ['04', 'complete']]);
    assert.ok(fx.logged.some((e) => e.message === 'Task 02, 03 built on task 01: marked stale, the next run executes them again'));
    assert.equal(fx.orchestrator.view(SESSION).phase, 'idle', 'not "done" while tasks are stale');

    executed.length = 0;
    assert.equal((await fx.run()).phase, 'done');
    assert.deepEqual(executed, ['01', '02', '03']);
  });

  it('a task commit can be opened: its files and its patch', async () => {
    fx = new GoalRunFixture({ executor: writes({ 'out.txt': 'line one\nline two\n' }), verifier: pass });
    fx.writeContext('# P\n\n## Plan\n- [01] Write\n');
    fx.start();
    assert.equal((await fx.run()).phase, 'done');
    const commit = (await fx.meta.read())!.plan!.tasks[0].commits![0];
    const shown = await fx.orchestrator.showCommit(SESSION, commit.slice(0, 10));
    assert.equal(shown.commit, commit);
    assert.match(shown.stat, /out\.txt \| 2 \+\+/);
    assert.match(shown.patch, /^diff --git a\/out\.txt b\/out\.txt\n/);
    assert.match(shown.patch, /\n\+line one\n\+line two\n/);
    assert.equal(shown.truncated, false);
    // Only the plan's commits: not any object of the repository.
    await assert.rejects(fx.orchestrator.showCommit(SESSION, 'deadbeef'), /is not a commit of this session's goal run tasks/);
  });

  it('a task commit with a huge file opens cut short, not as a failure', async () => {
    const big = 'x'.repeat(99) + '\n';
    fx = new GoalRunFixture({ executor: writes({ 'generated.txt': big.repeat(300_000) }), verifier: pass });
    fx.writeContext('# P\n\n## Plan\n- [01] Generate\n');
    fx.start();
    assert.equal((await fx.run()).phase, 'done');
    const commit = (await fx.meta.read())!.plan!.tasks[0].commits![0];
    const shown = await fx.orchestrator.showCommit(SESSION, commit);
    assert.equal(shown.truncated, true);
    assert.ok(shown.patch.length <= 2_000_000);
    assert.match(shown.stat, /generated\.txt \| 300000 \+/);
  });
});
