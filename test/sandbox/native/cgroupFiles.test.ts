import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createRunCgroup, type CgroupSupport } from '../../../src-main/node/sandbox/native/cgroupLimits';

// cgroup v2 controllers cannot exist on this machine (its v2 hierarchy has none; limits.test.ts drives the real v1
// ones), so the v2 layout is checked against a directory standing in for a delegated cgroup: which files get which
// values, and how a hit limit is read back.
describe('cgroup v2 limits (a stand-in cgroup directory)', () => {
  const parent = mkdtempSync(join(tmpdir(), 'omni-native-cgv2-'));
  after(() => rmSync(parent, { recursive: true, force: true }));
  const v2 = (controller: 'memory' | 'pids' | 'cpu') => ({ controller, version: 2 as const, parent });
  const support: CgroupSupport = { places: { memory: v2('memory'), pids: v2('pids'), cpu: v2('cpu') }, missing: {} };

  it('one cgroup for all three controllers, with memory.max (no swap), pids.max and cpu.max', () => {
    const run = createRunCgroup(support, 'omni-run-1-a', { memBytes: 64 * 1024 * 1024, pids: 32, cpuMillicores: 500 });
    const dir = join(parent, 'omni-run-1-a');
    assert.deepEqual(run.procsFiles, [join(dir, 'cgroup.procs')], 'the run joins one cgroup, not one per controller');
    assert.deepEqual(run.enforced, ['cgroup-v2:memory', 'cgroup-v2:pids', 'cgroup-v2:cpu']);
    assert.equal(readFileSync(join(dir, 'memory.max'), 'utf8'), String(64 * 1024 * 1024));
    assert.equal(readFileSync(join(dir, 'pids.max'), 'utf8'), '32');
    assert.equal(readFileSync(join(dir, 'cpu.max'), 'utf8'), '50000 100000', 'half a core: 50 ms of every 100 ms');
    assert.deepEqual(readdirSync(dir).sort(), ['cpu.max', 'memory.max', 'pids.max']);
  });

  it('says which limit the run hit, from memory.events and pids.events', () => {
    const run = createRunCgroup(support, 'omni-run-1-b', { memBytes: 64 * 1024 * 1024, pids: 32 });
    const dir = join(parent, 'omni-run-1-b');
    assert.equal(run.limitHit(), null);
    writeFileSync(join(dir, 'pids.events'), 'max 3\n');
    assert.equal(run.limitHit(), 'process limit of 32 reached: the run could not start more processes or threads');
    writeFileSync(join(dir, 'memory.events'), 'low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n');
    assert.equal(run.limitHit(), 'memory limit of 64 MiB reached: the kernel killed a process of the run');
  });

  it('only the limits asked for are written', () => {
    const run = createRunCgroup(support, 'omni-run-1-c', { pids: 8 });
    assert.deepEqual(run.enforced, ['cgroup-v2:pids']);
    assert.deepEqual(readdirSync(join(parent, 'omni-run-1-c')), ['pids.max']);
  });
});
