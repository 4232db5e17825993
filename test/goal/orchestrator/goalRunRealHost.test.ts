// The orchestrator as the app wires it (hostServices.goalRuns): the real spawn_agent, real native agents in the OS
// sandbox (shell scripts standing in for the executor and verifier), real git, session.json through MetaState.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MetaState } from '../../../src-main/node/goal/metaShell';
import { waitFor } from '../../helpers';
import { startSpawnHost } from '../metaShell/fixtures/spawnHost';

const out = `out() { printf '{"schema_version":"0.1","type":"output","agent_id":"x","chunk_id":"main","content_type":"text/plain","data":"%s"}\\n' "$1"; }`;

/** Writes task-<id>.txt for the task its message names ("Task 01: …"). */
const EXECUTOR = `#!/bin/sh
read -r input
${out}
id=$(printf '%s' "$input" | grep -o 'Task [0-9][0-9]*: ' | head -n 1 | sed 's/Task \\([0-9]*\\): /\\1/')
echo "done by task $id" > "task-$id.txt"
out "wrote task-$id.txt"
`;

const VERIFIER = `#!/bin/sh
read -r input
${out}
out 'PASS'
`;

test('a goal run through the real host: spawn_agent runs the executor and verifier agents, each task committed in dependency order', { timeout: 120_000 }, async (t) => {
  const host = await startSpawnHost(t);
  host.installNative('executor', EXECUTOR);
  host.installNative('verifier', VERIFIER);
  mkdirSync(join(host.workspace, '.meta'), { recursive: true });
  writeFileSync(join(host.workspace, '.meta', 'context.md'), '# Project: demo\n\n## Plan\n\n- [02] Second (after 01)\n- [01] First\n');
  const { goalRuns } = host.services;

  await goalRuns.start(host.sessionId, 'user');
  const view = await waitFor(() => {
    const current = goalRuns.view(host.sessionId);
    return current.phase === 'done' || current.phase === 'failed' || current.phase === 'halted' ? current : null;
  }, 'the goal run to end', 100_000);
  assert.equal(view.phase, 'done', view.message ?? '');

  const state = (await new MetaState(host.workspace).read())!;
  assert.deepEqual(state.plan!.tasks.map((task) => [task.id, task.status]), [['02', 'complete'], ['01', 'complete']]);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: host.workspace, encoding: 'utf8' }).trim();
  assert.deepEqual(git('log', '--format=%s').split('\n'), ['Task 02: Second', 'Task 01: First']);
  for (const task of state.plan!.tasks) {
    assert.equal(git('show', '--name-only', '--format=', task.commits![0]), `task-${task.id}.txt`);
    assert.equal(readFileSync(join(host.workspace, `task-${task.id}.txt`), 'utf8'), `done by task ${task.id}\n`);
  }
  host.services.ledger.flush();
  const types = host.services.ledger.list({ sessionId: host.sessionId, limit: 500 }).map((entry) => entry.type);
  assert.equal(types.filter((type) => type === 'host.spawn_start').length, 4, 'executor and verifier for each of the two tasks');
  assert.equal(types.filter((type) => type === 'goal.task_commit').length, 2);
});

/** Writes a file, then works for a long time (until halted). */
const SLOW_EXECUTOR = `#!/bin/sh
read -r input
echo partial > partial.txt
exec sleep 297
`;

test('Halt through the real host ends the running agent, drops its partial writes and leaves the run halted', { timeout: 120_000 }, async (t) => {
  const host = await startSpawnHost(t);
  host.installNative('executor', SLOW_EXECUTOR);
  host.installNative('verifier', VERIFIER);
  mkdirSync(join(host.workspace, '.meta'), { recursive: true });
  writeFileSync(join(host.workspace, '.meta', 'context.md'), '# Project: demo\n\n## Plan\n\n- [01] Slow\n');
  const { goalRuns } = host.services;

  await goalRuns.start(host.sessionId, 'user');
  // /proc/<pid>/cmdline separates arguments with NULs.
  const sleeping = () => host.processesWith('sleep\u0000297').length;
  await waitFor(() => sleeping() > 0, 'the executor to be working', 60_000);
  const view = await goalRuns.halt(host.sessionId, 'user');
  assert.equal(view.phase, 'halted');
  assert.equal(view.message, 'Halted by user');
  assert.equal(view.state!.status, 'halted');
  await waitFor(() => sleeping() === 0, 'the agent process to be gone', 30_000);
  assert.equal(existsSync(join(host.workspace, 'partial.txt')), false, 'the halted agent left nothing in the workspace');
  assert.deepEqual(view.state!.plan!.tasks[0].commits, []);
});
