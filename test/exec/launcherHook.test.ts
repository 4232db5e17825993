import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Launcher, LaunchRequest } from '../../src-main/node/exec/launcher';
import { waitFor } from '../helpers';
import { execFixture, outputOf, pollAll, spawnRun, waitEnded } from './execFixture';

/** A launcher like the native sandbox's: wraps the command, reports what it enforces, and logs its hooks. */
function recordingLauncher(options: { failCommit?: boolean; failPrepare?: boolean } = {}) {
  const calls: string[] = [];
  const requests: LaunchRequest[] = [];
  const launcher: Launcher = async (request) => {
    requests.push(request);
    if (options.failPrepare) throw new Error('bwrap is not installed');
    return {
      argv: ['/usr/bin/env', 'WRAPPED=yes', ...request.argv],
      env: request.env,
      cwd: request.cwd,
      enforced: ['test-wrapper', 'cgroup:pids'],
      afterSpawn: (pid) => void calls.push(`afterSpawn:${typeof pid}`),
      onSuccess: async () => {
        calls.push('onSuccess');
        if (options.failCommit) throw new Error('the staged writes conflict with the workspace');
      },
      onFailure: async () => void calls.push('onFailure'),
      limitHit: () => (request.argv.includes('exit 4') ? 'memory limit of 64 MiB reached: the kernel killed a process' : null),
      dispose: () => void calls.push('dispose'),
    };
  };
  return { launcher, calls, requests };
}

test('the launcher wraps the command, its enforced limits are stored with the run, staged writes commit only on success', async (t) => {
  const { launcher, calls, requests } = recordingLauncher();
  const f = await execFixture({ launcher });
  t.after(() => f.close());
  const ok = await spawnRun(f, { command: 'echo "wrapped=$WRAPPED run=$OMNI_RUN_ID"' });
  const run = await waitEnded(f, ok);
  assert.equal(run.status, 'exited');
  assert.deepEqual(run.sandbox, ['test-wrapper', 'cgroup:pids']);
  assert.equal(outputOf((await pollAll(f, ok)).items, 'stdout'), `wrapped=yes run=${ok}\n`, 'the wrapped command ran, with the run mark');
  assert.deepEqual(calls.splice(0), ['afterSpawn:number', 'onSuccess', 'dispose']);
  assert.deepEqual(requests[0].argv, ['/bin/sh', '-c', 'echo "wrapped=$WRAPPED run=$OMNI_RUN_ID"'], 'the launcher gets the argv as asked');
  assert.equal(requests[0].env.OMNI_RUN_ID, ok);

  const failing = await spawnRun(f, { command: 'exit 4' });
  const failed = await waitEnded(f, failing);
  assert.equal(failed.exit_code, 4);
  assert.equal(failed.reason, 'memory limit of 64 MiB reached: the kernel killed a process', 'the limit the sandbox saw is the reason');
  assert.deepEqual(calls.splice(0), ['afterSpawn:number', 'onFailure', 'dispose'], 'a failed command: staged writes dropped');

  const killed = await spawnRun(f, { command: 'sleep 300' });
  await waitFor(() => calls.length > 0, 'the process to start');
  await waitEnded(f, (await f.shell({ action: 'kill', run_id: killed })).run_id);
  assert.deepEqual(calls.splice(0), ['afterSpawn:number', 'onFailure', 'dispose'], 'a killed run: staged writes dropped');

  // Every execution is in the ledger with what the sandbox enforced.
  await f.ledger.flush();
  const spawns = f.ledger.list({ limit: 50 }).filter((entry) => entry.type === 'exec.spawn' && entry.payload.run_id === ok);
  assert.deepEqual(spawns.map((entry) => [entry.actor, entry.payload.sandbox, entry.payload.argv]), [
    ['user', ['test-wrapper', 'cgroup:pids'], ['/bin/sh', '-c', 'echo "wrapped=$WRAPPED run=$OMNI_RUN_ID"']],
  ]);
  const ends = f.ledger.list({ limit: 50 }).filter((entry) => entry.type === 'exec.end' && entry.payload.run_id === ok);
  assert.deepEqual(ends.map((entry) => [entry.payload.status, entry.payload.exit_code, entry.payload.output_bytes]), [['exited', 0, `wrapped=yes run=${ok}\n`.length]]);
});

test('a commit that fails fails the run; a launcher that cannot prepare fails it with the reason', async (t) => {
  const commit = recordingLauncher({ failCommit: true });
  const f = await execFixture({ launcher: commit.launcher });
  t.after(() => f.close());
  const runId = await spawnRun(f, { command: 'true' });
  const run = await waitEnded(f, runId);
  assert.equal(run.status, 'failed');
  assert.equal(run.exit_code, 0);
  assert.equal(run.reason, "the run's writes could not be committed: the staged writes conflict with the workspace");

  const prepare = recordingLauncher({ failPrepare: true });
  const g = await execFixture({ launcher: prepare.launcher });
  t.after(() => g.close());
  const refused = await spawnRun(g, { command: 'true' });
  const ended = await waitEnded(g, refused);
  assert.equal(ended.status, 'failed');
  assert.equal(ended.reason, 'the sandbox could not prepare the run: bwrap is not installed');
  assert.deepEqual(prepare.calls, []);
});

test('a command that cannot start fails with the reason', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const runId = await spawnRun(f, { command: ['/nonexistent/program'] });
  const run = await waitEnded(f, runId);
  assert.equal(run.status, 'failed');
  assert.match(run.reason!, /could not start the command: spawn \/nonexistent\/program ENOENT/);
});
