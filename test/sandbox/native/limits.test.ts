import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createNativeSandbox } from '../../../src-main/node/sandbox/native/nativeSandbox';
import { waitFor } from '../../helpers';
import { runSandboxed, shPolicy, startSandboxed } from './runSandboxed';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'omni-native-limits-')));
const sandbox = createNativeSandbox();
const probe = sandbox.probeSandbox();
const cgroupFor = (controller: 'memory' | 'pids') => probe.cgroups.places[controller];

/** Host pids whose command line contains `marker` (processes of a run, seen from outside the sandbox). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

describe('native sandbox: resource limits', () => {
  after(() => rmSync(workspace, { recursive: true, force: true }));

  it('a fork bomb hits the process limit, the host is unaffected, and kill leaves nothing of it', { skip: !cgroupFor('pids') && 'no writable pids controller here' }, async () => {
    const run = await startSandboxed(sandbox, shPolicy(workspace, 'bomb() { bomb | bomb & }; bomb; sleep 600', { resources: { pids: 64 } }));
    try {
      assert.ok(run.launch.enforced.some((e) => /^cgroup-v\d:pids$/.test(e)), run.launch.enforced.join());
      const hit = await waitFor(() => run.launch.limitHit?.(), 'the process limit to be hit', 20_000);
      assert.match(hit, /process limit of 64 reached/);
      assert.equal(execFileSync('/bin/echo', ['host still forks'], { encoding: 'utf8' }), 'host still forks\n');
      run.kill();
      const result = await run.done;
      assert.equal(result.signal, 'SIGKILL');
    } finally {
      run.dispose();
    }
    const runCgroups = () => readdirSync(cgroupFor('pids')!.parent).filter((name) => name.startsWith(`omni-run-${process.pid}-`));
    await waitFor(() => runCgroups().length === 0, 'the run cgroup to be removed (it can only be once no process of the bomb is left)');
  });

  it('a memory bomb is killed at the memory limit, and the run says why', { skip: !cgroupFor('memory') && 'no writable memory controller here' }, async () => {
    const result = await runSandboxed(sandbox, {
      ...shPolicy(workspace, ''),
      argv: ['python3', '-c', 'chunks = []\nwhile True: chunks.append(bytearray(16 << 20))'],
      resources: { memBytes: 64 * 1024 * 1024 },
    });
    assert.notEqual(result.code, 0);
    assert.match(result.limitHit ?? '', /memory limit of 64 MiB reached/);
  });

  it('CPU time per process is capped (RLIMIT_CPU)', async () => {
    const result = await runSandboxed(sandbox, shPolicy(workspace, 'python3 -c "while True: pass"; echo "status=$?"', { resources: { cpuSeconds: 1 } }));
    assert.match(result.output, /status=(137|152)/, 'SIGXCPU (or SIGKILL past the hard limit) stopped the loop');
  });

  for (const stageWrites of [false, true]) {
    it(`killing the spawned process ends the whole run, a daemonised grandchild included (${stageWrites ? 'staged: two bwrap layers' : 'one bwrap layer'})`, async () => {
      const marker = `3${stageWrites ? 2 : 1}${process.pid % 1000}7`;
      const run = await startSandboxed(sandbox, shPolicy(workspace, `setsid sh -c 'sleep ${marker}' & sleep ${marker} & echo started; wait`, { stageWrites }));
      try {
        await waitFor(() => run.output().includes('started') && processesWith(marker).length === 2, 'both sleeps to run');
        run.kill();
        await run.done;
        await waitFor(() => processesWith(marker).length === 0, 'every process of the run to be gone', 2000);
      } finally {
        run.dispose();
      }
    });
  }

  it('limits the machine cannot enforce are not reported as enforced', async () => {
    const launch = await sandbox.prepareLaunch(shPolicy(workspace, 'true', { resources: { memBytes: 64 << 20, pids: 10, cpuMillicores: 500, cpuSeconds: 5 } }));
    try {
      for (const controller of ['memory', 'pids', 'cpu'] as const) {
        const place = probe.cgroups.places[controller];
        assert.equal(launch.enforced.includes(`cgroup-v${place?.version ?? 1}:${controller}`), Boolean(place), controller);
      }
      assert.ok(launch.enforced.includes('rlimit:cpu'));
    } finally {
      launch.dispose?.();
    }
    const cgroupDirs = () => readdirSync(probe.cgroups.places.memory?.parent ?? tmpdir()).filter((name) => name.startsWith(`omni-run-${process.pid}-`));
    await waitFor(() => cgroupDirs().length === 0, 'dispose to remove the run cgroups');
  });
});
