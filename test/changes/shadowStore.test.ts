import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HunkNoLongerAppliesError } from '../../src-main/node/changes/changesErrors';
import { EMPTY_TREE, ShadowStore } from '../../src-main/node/changes/shadowStore';
import { tempDir } from '../helpers';

/** Lines 1..n, one per line, as a text file. */
const numbered = (n: number, change: (line: number) => string | null = () => null): string =>
  Array.from({ length: n }, (_, i) => change(i + 1) ?? `line ${i + 1}`).join('\n') + '\n';

/** git's view of a tree in the store: path → mode. */
function treeModes(store: ShadowStore, tree: string): Map<string, string> {
  const out = execFileSync('git', ['--git-dir', store.storeDir, 'ls-tree', '-r', '-z', tree], { encoding: 'utf8' });
  const modes = new Map<string, string>();
  for (const record of out.split('\0').filter(Boolean)) modes.set(record.slice(record.indexOf('\t') + 1), record.split(' ')[0]);
  return modes;
}

describe('ShadowStore', () => {
  let root: ReturnType<typeof tempDir>;
  let home: string;
  let count = 0;
  /** A fresh workspace folder with the given files. */
  const workspaceWith = (files: Record<string, string> = {}): string => {
    const dir = join(root.path, `ws${count++}`);
    mkdirSync(dir);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    return dir;
  };

  before(() => {
    root = tempDir('shadow-store');
    home = join(root.path, 'home');
  });
  after(() => root.cleanup());

  it('lives under the app home and sees an edit by sed -i, an rm and a new file', async () => {
    const ws = workspaceWith({ 'src/a.ts': numbered(10), 'b.txt': 'bye\n', 'keep.txt': 'same\n' });
    const store = await ShadowStore.open(home, ws);
    assert.ok(store.storeDir.startsWith(join(home, 'changes') + '/'));
    assert.match(store.storeDir, /\/changes\/[0-9a-f]{16}$/);
    const before = await store.snapshot();
    execFileSync('sed', ['-i', 's/^line 5$/line five/', join(ws, 'src/a.ts')]);
    execFileSync('rm', [join(ws, 'b.txt')]);
    writeFileSync(join(ws, 'c.txt'), 'hello\n');
    const after = await store.snapshot();
    const files = await store.changedFiles(before.tree, after.tree);
    assert.deepEqual(
      files.sort((x, y) => x.path.localeCompare(y.path)),
      [
        { path: 'b.txt', status: 'deleted', binary: false, additions: 0, deletions: 1 },
        { path: 'c.txt', status: 'added', binary: false, additions: 1, deletions: 0 },
        { path: 'src/a.ts', status: 'modified', binary: false, additions: 1, deletions: 1 },
      ],
    );
    const diff = await store.fileDiff(before.tree, after.tree, 'src/a.ts');
    assert.equal(diff.hunks.length, 1);
    assert.deepEqual(diff.hunks[0], {
      index: 0,
      oldStart: 2,
      oldLines: 7,
      newStart: 2,
      newLines: 7,
      heading: 'line 1', // git's default section heading: the nearest line above that starts with a letter
      lines: [' line 2', ' line 3', ' line 4', '-line 5', '+line five', ' line 6', ' line 7', ' line 8'],
    });
    // The first snapshot compares with the empty tree.
    assert.equal((await store.changedFiles(EMPTY_TREE, before.tree)).length, 3);
  });

  it('sees a same-size edit made in the same instant as the snapshot (git racy-clean entries)', async () => {
    const ws = workspaceWith({ 'r.txt': 'aaaa\n' });
    const store = await ShadowStore.open(home, ws);
    const first = await store.snapshot();
    writeFileSync(join(ws, 'r.txt'), 'bbbb\n'); // same size, same second
    const second = await store.snapshot();
    assert.notEqual(second.tree, first.tree);
    writeFileSync(join(ws, 'r.txt'), 'cccc\n');
    const mtime = statSync(join(ws, 'r.txt')).mtime;
    const third = await store.snapshot();
    writeFileSync(join(ws, 'r.txt'), 'dddd\n');
    // Same size and the same mtime as the one the index recorded: only the content tells.
    execFileSync('touch', ['-d', mtime.toISOString(), join(ws, 'r.txt')]);
    const fourth = await store.snapshot();
    assert.notEqual(fourth.tree, third.tree);
    assert.deepEqual(await store.changedFiles(third.tree, fourth.tree), [{ path: 'r.txt', status: 'modified', binary: false, additions: 1, deletions: 1 }]);
  });

  it('rejects the middle one of three hunks: exactly the other two stay on disk', async () => {
    const ws = workspaceWith({ 'f.txt': numbered(40) });
    const store = await ShadowStore.open(home, ws);
    const before = await store.snapshot();
    const edited = (line: number) => (line === 3 ? 'three' : line === 20 ? 'twenty' : line === 37 ? 'thirty-seven' : null);
    writeFileSync(join(ws, 'f.txt'), numbered(40, edited));
    const after = await store.snapshot();
    const { hunks } = await store.fileDiff(before.tree, after.tree, 'f.txt');
    assert.equal(hunks.length, 3);
    // A later edit elsewhere in the file stays too.
    writeFileSync(join(ws, 'f.txt'), numbered(40, (line) => (line === 10 ? 'ten, later' : edited(line))));
    await store.rejectHunk(before.tree, after.tree, 'f.txt', 1);
    assert.equal(
      readFileSync(join(ws, 'f.txt'), 'utf8'),
      numbered(40, (line) => (line === 3 ? 'three' : line === 37 ? 'thirty-seven' : line === 10 ? 'ten, later' : null)),
    );
    // The same hunk again: its lines are no longer there.
    await assert.rejects(store.rejectHunk(before.tree, after.tree, 'f.txt', 1), HunkNoLongerAppliesError);
    // A hunk whose lines were edited since cannot be rejected either; the file is left as it is.
    writeFileSync(join(ws, 'f.txt'), numbered(40, (line) => (line === 3 ? 'THREE' : line === 37 ? 'thirty-seven' : null)));
    await assert.rejects(store.rejectHunk(before.tree, after.tree, 'f.txt', 0), (error: unknown) => error instanceof HunkNoLongerAppliesError && error.kind === 'conflict');
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), numbered(40, (line) => (line === 3 ? 'THREE' : line === 37 ? 'thirty-seven' : null)));
  });

  it('rejects a hunk of a file whose executable bit changed too; rejecting the file puts the bit back', async () => {
    const ws = workspaceWith({ 'tool.sh': numbered(30) });
    const store = await ShadowStore.open(home, ws);
    const before = await store.snapshot();
    writeFileSync(join(ws, 'tool.sh'), numbered(30, (line) => (line === 2 ? 'two' : line === 28 ? 'twenty-eight' : null)));
    chmodSync(join(ws, 'tool.sh'), 0o755);
    const after = await store.snapshot();
    await store.rejectHunk(before.tree, after.tree, 'tool.sh', 1);
    assert.equal(readFileSync(join(ws, 'tool.sh'), 'utf8'), numbered(30, (line) => (line === 2 ? 'two' : null)));
    assert.equal(statSync(join(ws, 'tool.sh')).mode & 0o777, 0o755);
    await store.rejectFile(before.tree, (await store.snapshot()).tree, 'tool.sh');
    assert.equal(readFileSync(join(ws, 'tool.sh'), 'utf8'), numbered(30));
    assert.equal(statSync(join(ws, 'tool.sh')).mode & 0o111, 0);
  });

  it('keeps "\\ No newline at end of file" exact, in hunks and when rejecting', async () => {
    const ws = workspaceWith({ 'n.txt': 'a\nb\nc' });
    const store = await ShadowStore.open(home, ws);
    const before = await store.snapshot();
    writeFileSync(join(ws, 'n.txt'), 'a\nb\nc\nd\n');
    const after = await store.snapshot();
    const { hunks } = await store.fileDiff(before.tree, after.tree, 'n.txt');
    assert.deepEqual(hunks[0].lines, [' a', ' b', '-c', '\\ No newline at end of file', '+c', '+d']);
    await store.rejectHunk(before.tree, after.tree, 'n.txt', 0);
    assert.equal(readFileSync(join(ws, 'n.txt'), 'utf8'), 'a\nb\nc');
  });

  it('rejects whole files: an added one is deleted, a deleted one comes back, a renamed one goes back to its name', async () => {
    const body = numbered(30);
    const ws = workspaceWith({ 'gone.txt': 'was here\n', 'old/name.txt': body, 'mod.txt': numbered(20) });
    const store = await ShadowStore.open(home, ws);
    const before = await store.snapshot();
    unlinkSync(join(ws, 'gone.txt'));
    writeFileSync(join(ws, 'new.txt'), 'new\n');
    mkdirSync(join(ws, 'new'));
    execFileSync('mv', [join(ws, 'old/name.txt'), join(ws, 'new/name.txt')]);
    writeFileSync(join(ws, 'mod.txt'), numbered(20, (line) => (line === 2 ? 'two' : line === 18 ? 'eighteen' : null)));
    const after = await store.snapshot();
    const files = await store.changedFiles(before.tree, after.tree);
    assert.deepEqual(files.find((f) => f.status === 'renamed'), { path: 'new/name.txt', oldPath: 'old/name.txt', status: 'renamed', binary: false, additions: 0, deletions: 0 });
    for (const path of ['gone.txt', 'new.txt', 'new/name.txt', 'mod.txt']) await store.rejectFile(before.tree, after.tree, path);
    assert.equal(readFileSync(join(ws, 'gone.txt'), 'utf8'), 'was here\n');
    assert.equal(existsSync(join(ws, 'new.txt')), false);
    assert.equal(readFileSync(join(ws, 'old/name.txt'), 'utf8'), body);
    assert.equal(existsSync(join(ws, 'new')), false, 'the folder the rename left empty is gone');
    assert.equal(readFileSync(join(ws, 'mod.txt'), 'utf8'), numbered(20));
    assert.equal((await store.changedFiles(before.tree, (await store.snapshot()).tree)).length, 0);
  });

  it('restores a snapshot (a deleted file back, an added one removed, the executable bit), and a later restore undoes it', async () => {
    const ws = workspaceWith({ 'a.txt': 'one\n', 'sub/b.txt': 'two\n', 'run.sh': '#!/bin/sh\necho hi\n' });
    chmodSync(join(ws, 'run.sh'), 0o755);
    const store = await ShadowStore.open(home, ws);
    const first = await store.snapshot();
    unlinkSync(join(ws, 'sub/b.txt'));
    writeFileSync(join(ws, 'c.txt'), 'three\n');
    writeFileSync(join(ws, 'a.txt'), 'ONE\n');
    chmodSync(join(ws, 'run.sh'), 0o644);
    const second = await store.snapshot();
    const plan = await store.restorePlan(second.tree, first.tree);
    assert.deepEqual(
      plan.sort((x, y) => x.path.localeCompare(y.path)),
      [
        { path: 'a.txt', action: 'restore' },
        { path: 'c.txt', action: 'delete' },
        { path: 'run.sh', action: 'restore' },
        { path: 'sub/b.txt', action: 'recreate' },
      ],
    );
    await store.restore(first.tree, plan);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'one\n');
    assert.equal(readFileSync(join(ws, 'sub/b.txt'), 'utf8'), 'two\n');
    assert.equal(existsSync(join(ws, 'c.txt')), false);
    assert.equal(statSync(join(ws, 'run.sh')).mode & 0o777, 0o755);
    const restored = await store.snapshot();
    assert.equal(restored.tree, first.tree);
    // Undo: back to the second snapshot.
    await store.restore(second.tree, await store.restorePlan(restored.tree, second.tree));
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'ONE\n');
    assert.equal(existsSync(join(ws, 'sub/b.txt')), false);
    assert.equal(existsSync(join(ws, 'sub')), false);
    assert.equal(readFileSync(join(ws, 'c.txt'), 'utf8'), 'three\n');
    assert.equal(statSync(join(ws, 'run.sh')).mode & 0o111, 0);
    assert.equal((await store.snapshot()).tree, second.tree);
  });

  it('handles unicode and space-containing paths', async () => {
    const name = 'dossier à espaces/ünïcødé ✓ file.txt';
    const ws = workspaceWith({ [name]: 'é\n', 'a*b:c.txt': 'glob\n' });
    const store = await ShadowStore.open(home, ws);
    const first = await store.snapshot();
    writeFileSync(join(ws, name), 'è\n');
    unlinkSync(join(ws, 'a*b:c.txt'));
    const second = await store.snapshot();
    const files = await store.changedFiles(first.tree, second.tree);
    assert.deepEqual(files.map((f) => f.path).sort(), ['a*b:c.txt', name]);
    assert.deepEqual((await store.fileDiff(first.tree, second.tree, name)).hunks[0].lines, ['-é', '+è']);
    await store.restore(first.tree, await store.restorePlan(second.tree, first.tree));
    assert.equal(readFileSync(join(ws, name), 'utf8'), 'é\n');
    assert.equal(readFileSync(join(ws, 'a*b:c.txt'), 'utf8'), 'glob\n');
  });

  it('honours .gitignore, leaves out .meta (whatever .gitignore says) and reports binary files without hunks', async () => {
    const ws = workspaceWith({ '.gitignore': 'build/\n!.meta/\n', 'build/out.js': 'x', '.meta/session.json': '{}', 'img.bin': '\0\x01\x02' });
    const store = await ShadowStore.open(home, ws);
    const first = await store.snapshot();
    assert.deepEqual([...treeModes(store, first.tree).keys()].sort(), ['.gitignore', 'img.bin']);
    writeFileSync(join(ws, 'img.bin'), '\0\x01\x03');
    const second = await store.snapshot();
    assert.deepEqual(await store.fileDiff(first.tree, second.tree, 'img.bin'), {
      file: { path: 'img.bin', status: 'modified', binary: true, additions: 0, deletions: 0 },
      hunks: [],
    });
  });

  it("writes the tree git itself would for a workspace's first snapshot of many files", async () => {
    const files: Record<string, string> = { '.gitignore': '*.log\n', 'odd name [1]*.txt': 'odd\n', 'ü/é.txt': 'é\n', 'x.log': 'ignored\n' };
    for (let i = 0; i < 1200; i++) files[`d${i % 12}/f${i}.txt`] = `${i}\n`;
    const ws = workspaceWith(files);
    const store = await ShadowStore.open(home, ws);
    const { tree } = await store.snapshot();
    const scratch = join(root.path, `scratch${count++}`);
    execFileSync('git', ['init', '-q', '--bare', scratch]);
    const env = { ...process.env, GIT_DIR: scratch, GIT_WORK_TREE: ws, GIT_INDEX_FILE: join(scratch, 'index'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    execFileSync('git', ['add', '-A'], { cwd: ws, env });
    assert.equal(tree, execFileSync('git', ['write-tree'], { cwd: ws, env, encoding: 'utf8' }).trim());
    assert.equal(treeModes(store, tree).size, 1203);
  });

  it('takes concurrent snapshots of one store one after the other', async () => {
    const ws = workspaceWith({ 'a.txt': 'a\n' });
    const [one, two] = await Promise.all([ShadowStore.open(home, ws), ShadowStore.open(home, ws)]);
    const results = await Promise.all([one.snapshot(), two.snapshot(), one.snapshot(), two.snapshot()]);
    assert.equal(new Set(results.map((r) => r.tree)).size, 1);
  });
});
