import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { RpcError } from '../../../src-preload/contract/errors';
import { toRpcError } from '../../../src-main/node/handlerErrors';
import { GoalRunFixture, ok, SESSION } from './goalRunFixture';

const PLAN = '# P\n\n## Plan\n- [01] Config\n- [02] Schema (after 01)\n- [03] Docs\n';

/** Task 01 writes config.txt, 02 edits it and adds schema.sql (twice: a failed verification first), 03 writes docs.md. */
function scripted(): GoalRunFixture {
  const schemaVerdicts = ['FAIL: schema incomplete', 'PASS'];
  const fx = new GoalRunFixture({
    executor: (call, workspace) => {
      const id = /\n\nTask (\d+): /.exec(call.message)![1];
      if (id === '01') writeFileSync(join(workspace, 'config.txt'), 'name = supertasker\n');
      if (id === '02') {
        const attempt = existsSync(join(workspace, 'schema.sql')) ? 2 : 1;
        writeFileSync(join(workspace, 'config.txt'), `name = supertasker\ndb = tasks.sqlite\n`);
        writeFileSync(join(workspace, 'schema.sql'), attempt === 1 ? 'CREATE TABLE tasks (id);\n' : 'CREATE TABLE tasks (id);\nCREATE INDEX i ON tasks(id);\n');
      }
      if (id === '03') writeFileSync(join(workspace, 'docs.md'), '# Docs\n');
      return ok();
    },
    verifier: (call) => (/Task 02: /.test(call.message) ? ok(schemaVerdicts.shift() ?? 'PASS') : ok('PASS')),
  });
  return fx;
}

const rpcCode = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (thrown) {
    // What the client sees of it: the handler edge's code, and the domain error's message.
    const error = toRpcError('goal.rollback', thrown, () => assert.fail(`not a domain error: ${String(thrown)}`));
    assert.ok(error instanceof RpcError, String(error));
    return `${error.code}: ${error.message}`;
  }
  assert.fail('expected an RpcError');
};

describe('goal run: rollback(taskId)', () => {
  let fx: GoalRunFixture;
  afterEach(() => fx.dispose());

  it("reverts exactly that task's commits, newest first, keeps history, and puts the task back to pending", async () => {
    fx = scripted();
    fx.writeContext(PLAN);
    fx.start();
    assert.equal((await fx.run()).phase, 'done');
    const before = (await fx.meta.read())!;
    const schemaCommits = before.plan!.tasks[1].commits!;
    assert.equal(schemaCommits.length, 2, 'two attempts, two commits');
    const historyBefore = fx.git('rev-list', 'HEAD').split('\n');

    const result = await fx.orchestrator.rollback(SESSION, '02', 'user');

    assert.deepEqual(result.reverted, [...schemaCommits].reverse());
    assert.equal(result.revertCommits.length, 1);
    // Files are back as task 01 left them; task 03's file is untouched.
    assert.equal(readFileSync(join(fx.workspace, 'config.txt'), 'utf8'), 'name = supertasker\n');
    assert.equal(existsSync(join(fx.workspace, 'schema.sql')), false);
    assert.equal(readFileSync(join(fx.workspace, 'docs.md'), 'utf8'), '# Docs\n');
    // History is kept: every earlier commit is still an ancestor of the new HEAD, which is the revert commit.
    const historyAfter = fx.git('rev-list', 'HEAD').split('\n');
    assert.deepEqual(historyAfter.slice(1), historyBefore);
    assert.equal(historyAfter[0], result.revertCommits[0]);
    assert.match(fx.git('log', '-1', '--format=%B'), new RegExp(`^Roll back task 02: Schema\\n\\nReverts ${schemaCommits[1]}, ${schemaCommits[0]} \\(newest first\\)\\.`));

    const after = (await fx.meta.read())!;
    assert.deepEqual(after.plan!.tasks.map((t) => [t.id, t.status, t.commits!.length]), [['01', 'complete', 1], ['02', 'pending', 0], ['03', 'complete', 1]]);
    assert.equal(fx.orchestrator.view(SESSION).phase, 'idle');
    fx.ledger.flush();
    const entry = fx.ledger.list({ sessionId: SESSION, limit: 5 }).find((e) => e.type === 'goal.rollback')!;
    assert.deepEqual(entry.payload, { taskId: '02', reverted: result.reverted, revertCommits: result.revertCommits });
    assert.equal(entry.actor, 'user');
    assert.ok(fx.logged.some((e) => /^Task 02 rolled back by user: reverted [0-9a-f]{10}, [0-9a-f]{10} in [0-9a-f]{10}; the task is pending again$/.test(e.message)));

    // Run again: only the rolled-back task runs, and the plan completes.
    const executorsBefore = fx.calls.filter((c) => c.agent === 'executor').length;
    assert.equal((await fx.run()).phase, 'done');
    assert.equal(fx.calls.filter((c) => c.agent === 'executor').length, executorsBefore + 1);
  });

  it('refuses what would not be clean, saying what to do', async () => {
    fx = scripted();
    fx.writeContext(PLAN);
    fx.start();
    await fx.run();
    assert.match(await rpcCode(fx.orchestrator.rollback(SESSION, '01', 'user')), /^INVALID_STATE: task 02 depends on task 01 and has commits built on it: roll back that task first$/);
    assert.match(await rpcCode(fx.orchestrator.rollback(SESSION, '7', 'user')), /^NOT_FOUND: there is no task "7" in the plan \(tasks: 01, 02, 03\)$/);
    writeFileSync(join(fx.workspace, 'scratch.txt'), 'mine');
    assert.match(await rpcCode(fx.orchestrator.rollback(SESSION, '03', 'user')), /^INVALID_STATE: the workspace has uncommitted changes/);
    fx.git('add', 'scratch.txt');
    fx.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'mine');
    // A later commit that changes the same lines: the revert conflicts, is aborted, and nothing changes.
    writeFileSync(join(fx.workspace, 'docs.md'), '# Docs, edited by hand\n');
    fx.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'edit docs');
    const head = fx.git('rev-parse', 'HEAD');
    assert.match(await rpcCode(fx.orchestrator.rollback(SESSION, '03', 'user')), /^CONFLICT: task 03 cannot be reverted cleanly/);
    assert.equal(fx.git('rev-parse', 'HEAD'), head);
    assert.equal(fx.git('status', '--porcelain', '--', '.', ':(exclude).meta'), '');
    assert.equal((await fx.meta.read())!.plan!.tasks[2].status, 'complete');
  });

  it('says clearly when git is missing', async () => {
    fx = scripted();
    fx.writeContext(PLAN);
    fx.start();
    const path = process.env.PATH;
    process.env.PATH = mkdtempSync(join(tmpdir(), 'omni-no-git-'));
    try {
      // Run is refused at once (it checks the workspace with git before it starts).
      await assert.rejects(fx.run(), { message: /^git is not installed or not on PATH \(.*\); the goal run commits each task with git: install git/ });
      assert.equal(fx.calls.length, 0);
    } finally {
      process.env.PATH = path;
    }
  });

  it("does not commit while the repository's own config names a command git would run (agents can write .git)", async () => {
    fx = scripted();
    fx.writeContext(PLAN);
    fx.git('init', '-q');
    const marker = join(fx.dir.path, 'filter-ran');
    fx.git('config', '--local', 'filter.planted.clean', `touch ${marker}; cat`);
    writeFileSync(join(fx.workspace, '.gitattributes'), '* filter=planted\n');
    fx.start();
    // Refused at Run: even reading the workspace's status would run the filter.
    await assert.rejects(fx.run(), { message: /^the workspace's \.git\/config sets filter\.planted\.clean: a command git would run on the host while the goal run commits\. .*\(git config --local --unset filter\.planted\.clean\)/ });
    assert.equal(existsSync(marker), false, 'the planted filter never ran');
    assert.equal(fx.calls.length, 0);
  });
});
