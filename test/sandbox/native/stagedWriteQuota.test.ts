// The staged-writes limit: a sandboxed run holds at most resources.stagedWriteBytes of pending writes, whatever way it
// writes (one big file, many small ones, fallocate, a sparse file, hard links). Reaching it ends the run with a
// disk quota report; nothing of it reaches the workspace and its staging is removed.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createNativeSandbox } from '../../../src-main/node/sandbox/native/nativeSandbox';
import { DiskQuotaError } from '../../../src-main/node/sandbox/native/nativeSandboxErrors';
import { runSandboxed, shPolicy, startSandboxed } from './runSandboxed';

const LIMIT = 4 * 1024 * 1024;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'omni-native-quota-')));
const home = join(root, 'home');
const staging = join(home, 'staging');
const sandbox = createNativeSandbox({ appHome: home });
after(() => {
  sandbox.dispose();
  rmSync(root, { recursive: true, force: true });
});

let count = 0;
function freshWorkspace(): string {
  const workspace = join(root, `ws${++count}`);
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'keep.txt'), 'kept');
  return workspace;
}

/** The workspace's entries (without .meta, which the sandbox makes). */
const entries = (workspace: string) => readdirSync(workspace).filter((name) => name !== '.meta').sort();
/** Run directories under the home's staging folder (the /etc snapshot aside). */
const runDirs = () => readdirSync(staging).filter((name) => !name.startsWith('omni-native-etc-'));

const policy = (workspace: string, script: string) => shPolicy(workspace, script, { stageWrites: true, resources: { stagedWriteBytes: LIMIT } });

describe('native sandbox: the staged-writes limit', () => {
  it('a run writing past the limit is ended at once with a disk quota report; nothing reaches the workspace; its staging is removed', async () => {
    const workspace = freshWorkspace();
    const started = Date.now();
    // Keeps going after its write fails: the sandbox, not the command, must end it.
    const run = await startSandboxed(sandbox, policy(workspace, 'head -c 16777216 /dev/zero > big; echo carried-on; sleep 600'));
    try {
      assert.ok(run.launch.enforced.includes(`staged-writes-limit:${LIMIT}`));
      assert.equal(runDirs().length, 1, 'the run stages under the app home');
      const result = await run.done;
      assert.ok(Date.now() - started < 15_000, 'ended by the limit, not after its sleep');
      assert.equal(result.signal, 'SIGKILL');
      const hit = run.launch.diskQuotaHit!();
      assert.ok(hit, 'reported as a disk quota hit');
      assert.equal(hit.limitBytes, LIMIT);
      assert.match(hit.message, /disk quota: the run's staged writes reached their limit of 4 MiB/);
      assert.match(hit.message, /nothing reached the workspace/);
      await assert.rejects(run.launch.onSuccess!(), (error: unknown) => error instanceof DiskQuotaError || /dropped/.test(String(error)));
    } finally {
      run.dispose();
    }
    assert.deepEqual(entries(workspace), ['keep.txt']);
    assert.deepEqual(runDirs(), [], 'the staging is removed');
  });

  it('a run within the limit is committed as before', async () => {
    const workspace = freshWorkspace();
    const result = await runSandboxed(sandbox, policy(workspace, 'head -c 3145728 /dev/zero > three-mib; echo done'));
    assert.equal(result.code, 0, result.output);
    assert.equal(result.commitError, null);
    assert.equal(result.limitHit, null);
    assert.deepEqual(entries(workspace), ['keep.txt', 'three-mib']);
    assert.equal(readFileSync(join(workspace, 'three-mib')).length, 3 * 1024 * 1024);
    assert.deepEqual(runDirs(), []);
  });

  // Each way a hostile command might get more than the limit onto the disk: refused by the kernel, or caught before
  // the commit; never in the workspace.
  const hostile: { name: string; script: string; quota: boolean }[] = [
    { name: 'many small files (each costs an inode, not a byte)', script: 'i=0; while [ $i -lt 3000 ]; do : > "f$i" || exit 0; i=$((i + 1)); done', quota: true },
    { name: 'ignoring the write error and exiting 0 with a half-written file', script: 'head -c 16777216 /dev/zero > big 2>/dev/null; exit 0', quota: true },
    { name: 'one huge sparse file (no pages in the staging, 1 GiB once copied)', script: 'truncate -s 1G sparse', quota: true },
    { name: 'hard links (one file staged, three once committed)', script: 'head -c 2097152 /dev/zero > a && ln a b && ln a c', quota: true },
    { name: 'fallocate past the limit (refused whole by the kernel)', script: 'fallocate -l 16M big', quota: false },
  ];
  for (const { name, script, quota } of hostile) {
    it(`hostile: ${name}`, async () => {
      const workspace = freshWorkspace();
      const run = await startSandboxed(sandbox, policy(workspace, script));
      const result = await run.done;
      const hit = run.launch.diskQuotaHit!();
      run.dispose();
      if (quota) {
        assert.ok(hit, `a disk quota hit (exit ${result.code}, ${result.signal}): ${result.output}`);
        if (result.code === 0) assert.ok(result.commitError instanceof DiskQuotaError, 'an exit 0 does not commit it');
      } else {
        assert.equal(hit, null);
        assert.notEqual(result.code, 0, 'the command saw its write refused');
        assert.match(result.output, /No space left on device/);
      }
      assert.deepEqual(entries(workspace), ['keep.txt'], 'nothing reached the workspace');
      assert.deepEqual(runDirs(), []);
    });
  }

  it('a run cannot see or write the staging folder (the app home is hidden)', async () => {
    const workspace = freshWorkspace();
    const result = await runSandboxed(sandbox, policy(workspace, `ls -A "${staging}"; echo x > "${staging}/planted" || true; echo end`));
    assert.equal(result.output.trim().split('\n').pop(), 'end');
    assert.equal(existsSync(join(staging, 'planted')), false);
  });

  it('a limit below 1 MiB is refused before anything runs, saying how to fix it', async () => {
    await assert.rejects(sandbox.prepareLaunch(shPolicy(freshWorkspace(), 'true', { stageWrites: true, resources: { stagedWriteBytes: 1000 } })), /resources\.stagedWriteBytes: 1000 bytes is too little.*allow at least 1 MiB/);
  });
});
