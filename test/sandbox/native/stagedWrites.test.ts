import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createNativeSandbox } from '../../../src-main/node/sandbox/native/nativeSandbox';
import { StagedCommitError } from '../../../src-main/node/sandbox/native/nativeSandboxErrors';
import { waitFor } from '../../helpers';
import { runSandboxed, shPolicy, startSandboxed } from './runSandboxed';

const sandbox = createNativeSandbox();

/**
 * The workspace as a sorted list of "path: content" (directories end with /, symlinks show their target). Without
 * .meta: the host's folder, which the sandbox creates (empty) where it is missing and binds read-only into every run.
 */
function snapshot(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .filter((name) => !(prefix === '' && name === '.meta'))
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) return [`${prefix}${name} -> ${readlinkSync(path)}`];
      if (stat.isDirectory()) return [`${prefix}${name}/`, ...snapshot(path, `${prefix}${name}/`)];
      return [`${prefix}${name}: ${readFileSync(path, 'utf8').trim()}`];
    });
}

describe('native sandbox: staged writes', () => {
  let workspace = '';
  beforeEach(() => {
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'omni-native-staged-')));
    writeFileSync(join(workspace, 'keep.txt'), 'kept');
    writeFileSync(join(workspace, 'change.txt'), 'before');
    writeFileSync(join(workspace, 'delete.txt'), 'doomed');
    mkdirSync(join(workspace, 'build'));
    writeFileSync(join(workspace, 'build', 'stale.o'), 'stale');
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'src', 'a.ts'), 'a');
    symlinkSync('keep.txt', join(workspace, 'link'));
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('a killed run leaves no partial writes: nothing shows while it runs, nothing after', async () => {
    const original = snapshot(workspace);
    const run = await startSandboxed(sandbox, shPolicy(workspace, 'echo partial > out.txt; echo changed > change.txt; rm delete.txt; echo "sees: $(cat out.txt)"; sleep 600', { stageWrites: true }));
    try {
      assert.ok(run.launch.enforced.includes('staged-writes'));
      await waitFor(() => run.output().includes('sees: partial'), 'the run to write');
      assert.deepEqual(snapshot(workspace), original, 'the workspace is untouched while the run goes on');
      run.kill();
      const result = await run.done;
      assert.equal(result.signal, 'SIGKILL');
    } finally {
      run.dispose();
    }
    assert.deepEqual(snapshot(workspace), original, 'and untouched after the kill');
  });

  it('a failed run (non-zero exit) is dropped', async () => {
    const original = snapshot(workspace);
    const result = await runSandboxed(sandbox, shPolicy(workspace, 'echo half > out.txt; rm keep.txt; exit 3', { stageWrites: true }));
    assert.equal(result.code, 3);
    assert.deepEqual(snapshot(workspace), original);
  });

  it('a successful run is committed: new, changed and deleted files, a directory replaced whole, a symlink replaced', async () => {
    const result = await runSandboxed(
      sandbox,
      shPolicy(
        workspace,
        'echo new > new.txt; echo after > change.txt; rm delete.txt; rm -rf build && mkdir build && echo fresh > build/out.o; mkdir -p deep/er && echo d > deep/er/f; rm link && echo real > link; chmod +x new.txt',
        { stageWrites: true },
      ),
    );
    assert.equal(result.code, 0, result.output);
    assert.equal(result.commitError, null);
    assert.deepEqual(snapshot(workspace), [
      'build/',
      'build/out.o: fresh',
      'change.txt: after',
      'deep/',
      'deep/er/',
      'deep/er/f: d',
      'keep.txt: kept',
      'link: real',
      'new.txt: new',
      'src/',
      'src/a.ts: a',
    ]);
    assert.equal(lstatSync(join(workspace, 'new.txt')).mode & 0o111, 0o111, 'the mode comes along');
  });

  it('a directory replaced by a file and a file by a directory are committed as such', async () => {
    const result = await runSandboxed(sandbox, shPolicy(workspace, 'rm -r src && echo now-a-file > src; rm keep.txt && mkdir keep.txt && echo inner > keep.txt/x; mv change.txt moved.txt', { stageWrites: true }));
    assert.equal(result.code, 0, result.output);
    assert.deepEqual(snapshot(workspace), ['build/', 'build/stale.o: stale', 'delete.txt: doomed', 'keep.txt/', 'keep.txt/x: inner', 'link -> keep.txt', 'moved.txt: before', 'src: now-a-file']);
  });

  it('a successful run that wrote nothing commits nothing', async () => {
    const original = snapshot(workspace);
    const result = await runSandboxed(sandbox, shPolicy(workspace, 'cat keep.txt', { stageWrites: true }));
    assert.equal(result.code, 0);
    assert.equal(result.commitError, null);
    assert.equal(result.output, 'kept');
    assert.deepEqual(snapshot(workspace), original);
  });

  it("the staged workspace's root keeps the workspace's own mode, and a run writes and commits under it", async () => {
    for (const mode of [0o750, 0o711, 0o2775]) {
      chmodSync(workspace, mode);
      const result = await runSandboxed(sandbox, shPolicy(workspace, `stat -c %a .; echo ${mode.toString(8)} > mode-${mode.toString(8)}.txt`, { stageWrites: true }));
      assert.equal(result.code, 0, result.output);
      assert.equal(result.output.trim(), mode.toString(8), 'the root the run sees');
      assert.equal(readFileSync(join(workspace, `mode-${mode.toString(8)}.txt`), 'utf8'), `${mode.toString(8)}\n`);
      assert.equal(lstatSync(workspace).mode & 0o7777, mode, 'the workspace root itself unchanged by the commit');
    }
  });

  it('a run staged in a subdirectory cwd sees and commits relative to it', async () => {
    const result = await runSandboxed(sandbox, shPolicy(workspace, 'echo b > b.ts; cat a.ts', { cwd: join(workspace, 'src'), stageWrites: true }));
    assert.equal(result.output.trim(), 'a');
    assert.equal(readFileSync(join(workspace, 'src', 'b.ts'), 'utf8'), 'b\n');
  });

  it('committing a run that never finished is refused with a typed error', async () => {
    const run = await startSandboxed(sandbox, shPolicy(workspace, 'echo partial > out.txt; echo ready; sleep 600', { stageWrites: true }), { settle: false });
    try {
      await waitFor(() => run.output().includes('ready'), 'the run to write');
      run.kill();
      await run.done;
      // A caller that mistakes the kill for success still cannot commit it.
      await assert.rejects(run.launch.onSuccess!(), (error: unknown) => error instanceof StagedCommitError && /did not finish/.test(error.message));
      await run.launch.onFailure!();
      await assert.rejects(run.launch.onSuccess!(), (error: unknown) => error instanceof StagedCommitError && /already dropped/.test(error.message));
    } finally {
      run.dispose();
    }
    assert.equal(existsSync(join(workspace, 'out.txt')), false);
  });

  it('without staging, writes land at once', async () => {
    const result = await runSandboxed(sandbox, shPolicy(workspace, 'echo direct > direct.txt'));
    assert.equal(result.code, 0);
    assert.equal(readFileSync(join(workspace, 'direct.txt'), 'utf8'), 'direct\n');
  });
});
