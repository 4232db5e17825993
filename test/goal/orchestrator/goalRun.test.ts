import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { answer, GoalRunFixture, ok, SESSION, writes, type AgentCall } from './goalRunFixture';

const CONTEXT = `# Project: SuperTasker CLI

## Vision

A lightweight CLI for managing tasks.

## Current Phase Focus

Phase 1: MVP

## Plan

- [02] Implement schema (after 03)
  Create schema.sql.
- [03] Setup project
- [01] List view (after 02, 03)
`;

const pass = () => ok('{"verdict":"pass"}');

describe('goal run: plan, execute in dependency order, commit, verify', () => {
  let fx: GoalRunFixture;
  afterEach(() => fx.dispose());

  it('runs a context.md plan in dependency order, commits each task and records the commits, through the spec statuses', async () => {
    fx = new GoalRunFixture({
      executor: (call, workspace) => {
        const id = /\n\nTask (\d+): /.exec(call.message)![1];
        writeFileSync(join(workspace, `task-${id}.txt`), `done by task ${id}\n`);
        return ok();
      },
      verifier: pass,
    });
    fx.writeContext(CONTEXT);
    writeFileSync(join(fx.workspace, 'README.md'), 'user file\n');
    fx.start();
    // The user's file is uncommitted: the run asks (test/goal/dirtyTree.test.ts), and this user answered "commit".
    const view = await fx.run('commit');

    assert.equal(view.phase, 'done', view.message ?? '');
    assert.equal(view.planner, 'deterministic');
    const executed = fx.calls.filter((c) => c.agent === 'executor').map((c) => c.stateAtSpawn!.plan!.tasks[c.stateAtSpawn!.plan!.currentTaskIdx].id);
    assert.deepEqual(executed, ['03', '02', '01']);
    // The host wrote the status before each spawn: executing for the executor, verifying for the verifier.
    assert.deepEqual([...new Set(fx.calls.map((c) => `${c.agent}:${c.stateAtSpawn!.status}`))], ['executor:executing', 'verifier:verifying']);
    // The prompt is the spec's: "Current State: Phase 1 (Executing Task 02), Context: <context.md>", then the task.
    const second = fx.calls.filter((c) => c.agent === 'executor')[1];
    assert.equal(second.message, `Current State: Phase 1 (Executing Task 02), Context: ${CONTEXT}\n\nTask 02: Implement schema\n\nInstructions:\nCreate schema.sql.`);
    assert.match(fx.calls.find((c) => c.agent === 'verifier')!.message, /^Current State: Phase 1 \(Verifying Task 03\), Context: # Project: SuperTasker CLI/);
    assert.equal(second.context.sessionId, SESSION);

    const state = (await fx.meta.read())!;
    assert.deepEqual(state.plan!.tasks.map((t) => [t.id, t.status, t.dependencies]), [['02', 'complete', ['03']], ['03', 'complete', []], ['01', 'complete', ['02', '03']]]);
    assert.equal(state.plan!.currentTaskIdx, 3);
    for (const task of state.plan!.tasks) {
      assert.equal(task.commits!.length, 1);
      // Each recorded commit is a real commit holding exactly that task's file (never .meta).
      assert.equal(fx.git('show', '--name-only', '--format=', task.commits![0]), `task-${task.id}.txt`);
      assert.match(fx.git('log', '-1', '--format=%s', task.commits![0]), new RegExp(`^Task ${task.id}: `));
    }
    // The user's file was committed before the run, as they chose, in a commit of its own that belongs to no task.
    assert.equal(fx.git('log', '--format=%s').split('\n').at(-1), 'Work in progress, committed before a goal run');
    assert.equal(fx.git('status', '--porcelain', '--', '.', ':(exclude).meta'), '');
    assert.ok(fx.logged.some((e) => /^Task 02: committed [0-9a-f]{10}$/.test(e.message)));
    assert.ok(fx.logged.some((e) => e.message === 'All 3 tasks complete'));
    assert.deepEqual(fx.ledgerTypes().filter((t) => t.startsWith('goal.')), ['goal.start', 'goal.plan', 'goal.dirty_tree', 'goal.task_commit', 'goal.task_commit', 'goal.task_commit']);
  });

  it('a double click on Run (and a Resume from another window) starts one run, not two', async () => {
    fx = new GoalRunFixture({ executor: writes({ 'a.txt': 'a' }), verifier: pass });
    fx.writeContext('# P\n\n## Plan\n- [01] Setup\n');
    fx.start();
    await Promise.all([fx.orchestrator.start(SESSION, 'user'), fx.orchestrator.start(SESSION, 'user'), fx.orchestrator.resume(SESSION, 'user')]);
    assert.equal((await fx.orchestrator.whenIdle(SESSION)).phase, 'done');
    assert.deepEqual(fx.calls.map((c) => c.agent), ['executor', 'verifier']);
    assert.equal(fx.ledgerTypes().filter((t) => t === 'goal.plan').length, 1);
  });

  it('in a workspace inside a larger repository, task commits hold only the workspace and leave what the user staged elsewhere', async () => {
    fx = new GoalRunFixture({ executor: writes({ 'a.txt': 'a' }), verifier: pass });
    const parent = join(fx.workspace, '..');
    execFileSync('git', ['init', '-q'], { cwd: parent });
    writeFileSync(join(parent, 'elsewhere.txt'), 'staged by the user\n');
    execFileSync('git', ['add', 'elsewhere.txt'], { cwd: parent });
    fx.writeContext('# P\n\n## Plan\n- [01] Setup\n');
    fx.start();
    assert.equal((await fx.run()).phase, 'done');
    const [commit] = (await fx.meta.read())!.plan!.tasks[0].commits!;
    assert.equal(fx.git('show', '--name-only', '--format=', commit), 'project/a.txt');
    assert.equal(execFileSync('git', ['diff', '--cached', '--name-only'], { cwd: parent, encoding: 'utf8' }).trim(), 'elsewhere.txt');
  });

  it('a malformed plan is refused at Run, naming the line, before any agent runs or git is touched', async () => {
    fx = new GoalRunFixture({ executor: writes({ 'a.txt': 'a' }), verifier: pass });
    fx.writeContext('# P\n\n## Plan\n- [01] Setup\n- [02] Schema (after 01, 09)\n');
    fx.start();
    await assert.rejects(fx.run(), { message: '.meta/context.md line 5: "Schema" (task 02) depends on "09", which is not a task of the plan (tasks: 01, 02)' });
    assert.equal(fx.calls.length, 0);
    assert.equal(existsSync(join(fx.workspace, '.git')), false, 'no repository was even created');

    // Fixed and run again: it plans and runs.
    fx.writeContext('# P\n\n## Plan\n- [01] Setup\n- [02] Schema (after 01)\n');
    assert.equal((await fx.run()).phase, 'done');
  });

  it('plans with the planner agent when context.md has no plan; its JSON is validated and a cycle is refused', async () => {
    let plan = '```json\n{"tasks":[{"id":"a","title":"A","dependencies":["b"]},{"id":"b","title":"B","dependencies":["a"]}]}\n```';
    fx = new GoalRunFixture({ planner: () => ok(plan), executor: writes({ 'x.txt': String(Math.random()) }), verifier: pass });
    fx.writeContext('# Project: X\n\n## Vision\n\nDo X.\n');
    fx.start();
    let view = await fx.run();
    assert.equal(view.planner, 'llm');
    assert.equal(view.phase, 'failed');
    assert.equal(view.message, 'planner output: tasks depend on each other in a cycle: a → b → a; remove one of these dependencies');
    const planner = fx.calls[0];
    assert.equal(planner.agent, 'planner');
    assert.equal(planner.message, 'Current State: Phase 1 (Planning), Context: # Project: X\n\n## Vision\n\nDo X.\n');
    assert.match(planner.system, /Answer with JSON only/);

    plan = '{"tasks":[{"id":"a","title":"A"},{"id":"b","title":"B","dependencies":["a"],"verifier":"none"}]}';
    await fx.orchestrator.resume(SESSION, 'user');
    view = await fx.orchestrator.whenIdle(SESSION);
    assert.equal(view.phase, 'done', view.message ?? '');
    assert.deepEqual(fx.calls.map((c) => c.agent), ['planner', 'planner', 'executor', 'verifier', 'executor']);
  });
});

describe('goal run: checkpoints, circuit breaker, halt, resume', () => {
  let fx: GoalRunFixture;
  afterEach(() => fx.dispose());

  it("an executor's checkpoint pauses the run until answered, then the executor is resumed with resume_data", async () => {
    const question = { type: 'checkpoint', reason: 'decision_required', message: 'Which auth provider?', options: ['Auth0', 'Supabase'], resume_id: 'step_2_auth_decision' };
    fx = new GoalRunFixture({
      executor: (call, workspace) => {
        if (!call.options.resume_data) return answer('checkpoint', JSON.stringify(question));
        writeFileSync(join(workspace, 'auth.txt'), String(call.options.resume_data.user_input));
        return ok();
      },
      verifier: pass,
    });
    fx.writeContext('# P\n\n## Plan\n- [01] Auth\n');
    fx.start();
    await fx.orchestrator.start(SESSION, 'user');
    await fx.waitForView((v) => v.phase === 'waiting_checkpoint', 'the run to wait for the answer');
    assert.deepEqual(fx.checkpoints.pending(SESSION).map((c) => [c.resumeId, c.agentName, c.options]), [['step_2_auth_decision', 'executor', ['Auth0', 'Supabase']]]);
    assert.ok(fx.logged.some((e) => e.message === 'Task 01: executor asks: Which auth provider? (Auth0 | Supabase)'));

    fx.checkpoints.answer({ sessionId: SESSION, resumeId: 'step_2_auth_decision' }, 'Auth0');
    const view = await fx.orchestrator.whenIdle(SESSION);
    assert.equal(view.phase, 'done', view.message ?? '');
    assert.deepEqual(fx.calls.filter((c) => c.agent === 'executor').map((c) => c.options.resume_data ?? null), [null, { checkpoint_id: 'step_2_auth_decision', user_input: 'Auth0' }]);
    assert.equal(readFileSync(join(fx.workspace, 'auth.txt'), 'utf8'), 'Auth0');
    assert.equal(fx.checkpoints.get({ sessionId: SESSION, resumeId: 'step_2_auth_decision' })!.status, 'resumed');
  });

  it('failed verifications count up gapCount; at the threshold the breaker halts with a human_action checkpoint; resume continues', async () => {
    let verdicts = ['{"verdict":"fail","gaps":["no index on tasks"]}', 'FAIL: still no index', '{"verdict":"pass"}'];
    fx = new GoalRunFixture({
      executor: (_call, workspace) => {
        writeFileSync(join(workspace, 'schema.sql'), `-- attempt ${fx.calls.length}\n`);
        return ok();
      },
      verifier: () => ok(verdicts.shift()!),
    });
    fx.writeContext('# P\n\n## Plan\n- [01] Schema\n');
    fx.start({ gapThreshold: 2 });
    let view = await fx.run();

    assert.equal(view.phase, 'halted');
    assert.equal(view.message, 'Circuit breaker: verification of task 01 failed 2 times in a row; answer the checkpoint "circuit_breaker.01.1" and resume');
    assert.equal(view.state!.status, 'halted');
    assert.equal(view.state!.gapCount, 2);
    assert.equal(view.state!.plan!.tasks[0].status, 'failed');
    assert.equal(view.activeTaskId, '01');
    const [breaker] = fx.checkpoints.pending(SESSION);
    assert.equal(breaker.reason, 'human_action');
    assert.equal(breaker.resumeId, 'circuit_breaker.01.1');
    assert.match(breaker.message, /^Verification of task 01 "Schema" failed 2 times in a row\. Last gaps:\nstill no index\n/);
    // The retry was told what the verifier found missing.
    assert.match(fx.calls.filter((c) => c.agent === 'executor')[1].message, /An earlier attempt was not accepted\. Address this:\n- no index on tasks$/);
    // Each attempt was committed: two commits for the task.
    assert.equal(view.state!.plan!.tasks[0].commits!.length, 2);

    fx.checkpoints.answer({ sessionId: SESSION, resumeId: 'circuit_breaker.01.1' }, 'Add CREATE INDEX idx_tasks ON tasks(id)');
    await fx.orchestrator.resume(SESSION, 'user');
    view = await fx.orchestrator.whenIdle(SESSION);
    assert.equal(view.phase, 'done', view.message ?? '');
    assert.equal(view.state!.gapCount, 0);
    assert.match(fx.calls.filter((c) => c.agent === 'executor')[2].message, /still no index\nThe user says: Add CREATE INDEX idx_tasks ON tasks\(id\)$/);
    assert.equal(fx.checkpoints.get({ sessionId: SESSION, resumeId: 'circuit_breaker.01.1' })!.status, 'resumed');
    verdicts = [];
  });

  it('halt stops the running agent through its AbortSignal and sets halted; resume runs the task again', async () => {
    let attempt = 0;
    fx = new GoalRunFixture({
      executor: (call, workspace) => {
        attempt++;
        if (attempt === 1) {
          // A long agent: it ends only when the host aborts it (what spawn_agent does on halt).
          return new Promise((resolve) => call.context.signal!.addEventListener('abort', () => resolve(answer('error', 'halted'))));
        }
        writeFileSync(join(workspace, 'done.txt'), 'ok');
        return ok();
      },
      verifier: pass,
    });
    fx.writeContext('# P\n\n## Plan\n- [01] Long task\n');
    fx.start();
    await fx.orchestrator.start(SESSION, 'user');
    await fx.waitForView((v) => v.activeTaskId === '01' && fx.calls.length === 1, 'the executor to start');
    const halted = await fx.orchestrator.halt(SESSION, 'user');
    assert.equal(fx.calls[0].context.signal!.aborted, true);
    assert.equal(halted.phase, 'halted');
    assert.equal(halted.message, 'Halted by user');
    assert.equal(halted.state!.status, 'halted');
    assert.equal(halted.state!.plan!.tasks[0].status, 'pending');
    assert.ok(fx.logged.some((e) => e.message === 'Halted by user' && e.level === 'warn'));

    await fx.orchestrator.resume(SESSION, 'user');
    const view = await fx.orchestrator.whenIdle(SESSION);
    assert.equal(view.phase, 'done', view.message ?? '');
    assert.equal(existsSync(join(fx.workspace, 'done.txt')), true);
    assert.deepEqual(fx.ledgerTypes().filter((t) => t.startsWith('goal.')), ['goal.start', 'goal.plan', 'goal.halt', 'goal.resume', 'goal.task_commit']);
  });

  it('after a crash mid-task (status left "executing"), Run on a new host continues from that task', async () => {
    let attempt = 0;
    fx = new GoalRunFixture({
      executor: (call, workspace) => {
        const id = /\n\nTask (\d+): /.exec(call.message)![1];
        if (id === '02' && ++attempt === 1) return new Promise(() => undefined); // the host dies while this agent works
        writeFileSync(join(workspace, `task-${id}.txt`), id);
        return ok();
      },
      verifier: pass,
    });
    fx.writeContext('# P\n\n## Plan\n- [01] One\n- [02] Two (after 01)\n');
    fx.start();
    await fx.orchestrator.start(SESSION, 'user');
    await fx.waitForView((v) => v.activeTaskId === '02' && fx.calls.length === 3, 'task 02 to be executing');
    // A new orchestrator on the same files, as after a restart (the old one is never heard from again).
    const restarted = fx.start();
    const before = restarted.view(SESSION);
    assert.equal(before.phase, 'idle');
    assert.equal(before.state!.status, 'executing');
    await restarted.start(SESSION, 'user');
    const view = await restarted.whenIdle(SESSION);
    assert.equal(view.phase, 'done', view.message ?? '');
    assert.deepEqual(fx.calls.slice(3).map((c) => c.agent), ['executor', 'verifier'], 'task 01 is not run again');
  });

  it("a halt while waiting for a checkpoint keeps the question; after a restart, resume waits for it again instead of asking anew", async () => {
    const question = { type: 'checkpoint', reason: 'human_action', message: 'Create the OAuth app, then continue', options: [], resume_id: 'oauth_app' };
    fx = new GoalRunFixture({
      executor: (call, workspace) => {
        if (!call.options.resume_data) return answer('checkpoint', JSON.stringify(question));
        writeFileSync(join(workspace, 'oauth.txt'), String(call.options.resume_data.user_input));
        return ok();
      },
      verifier: pass,
    });
    fx.writeContext('# P\n\n## Plan\n- [01] OAuth\n');
    fx.start();
    await fx.orchestrator.start(SESSION, 'user');
    await fx.waitForView((v) => v.phase === 'waiting_checkpoint', 'the question');
    await fx.orchestrator.halt(SESSION, 'user');
    await fx.orchestrator.dispose();
    const restarted = fx.start();
    assert.equal(restarted.view(SESSION).phase, 'halted');
    await restarted.resume(SESSION, 'user');
    await fx.waitForView((v) => v.phase === 'waiting_checkpoint', 'the same question after the restart');
    fx.checkpoints.answer({ sessionId: SESSION, resumeId: 'oauth_app' }, 'created, client id abc');
    const view = await restarted.whenIdle(SESSION);
    assert.equal(view.phase, 'done', view.message ?? '');
    const executorCalls = fx.calls.filter((c: AgentCall) => c.agent === 'executor');
    assert.equal(executorCalls.length, 2, 'asked once, resumed once');
    assert.equal(readFileSync(join(fx.workspace, 'oauth.txt'), 'utf8'), 'created, client id abc');
  });

  it("a verifier's question pending at Halt: Resume waits for it again without executing the task a second time", async () => {
    const question = { type: 'checkpoint', reason: 'decision_required', message: 'Is a warning acceptable?', options: ['yes', 'no'], resume_id: 'verify_warning' };
    fx = new GoalRunFixture({
      executor: writes({ 'a.txt': 'a' }),
      verifier: (call) => (call.options.resume_data?.user_input === 'yes' ? pass() : answer('checkpoint', JSON.stringify(question))),
    });
    fx.writeContext('# P\n\n## Plan\n- [01] Build\n');
    fx.start();
    await fx.orchestrator.start(SESSION, 'user');
    await fx.waitForView((v) => v.phase === 'waiting_checkpoint', "the verifier's question");
    await fx.orchestrator.halt(SESSION, 'user');
    await fx.orchestrator.resume(SESSION, 'user');
    await fx.waitForView((v) => v.phase === 'waiting_checkpoint', 'the same question after Resume');
    assert.equal(fx.orchestrator.view(SESSION).state!.status, 'verifying');
    fx.checkpoints.answer({ sessionId: SESSION, resumeId: 'verify_warning' }, 'yes');
    const view = await fx.orchestrator.whenIdle(SESSION);
    assert.equal(view.phase, 'done', view.message ?? '');
    assert.deepEqual(fx.calls.map((c) => c.agent), ['executor', 'verifier', 'verifier']);
    assert.equal(view.state!.plan!.tasks[0].commits!.length, 1);
  });
});
