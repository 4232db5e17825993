import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UnsafeWorkspacePathError } from '../../src-main/node/changes/changesErrors';
import { ShadowStore } from '../../src-main/node/changes/shadowStore';
import { tempDir } from '../helpers';

/** Every file under `dir` (links as their target), path → sha256: a fingerprint of a folder, byte for byte. */
function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isSymbolicLink()) out.set(relative(dir, path), `-> ${readlinkSync(path)}`);
      else out.set(relative(dir, path), `${statSync(path).mode.toString(8)} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

function duSize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath ?? entry.path, entry.name)).size;
  }
  return total;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', ...args], { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

describe('ShadowStore against a hostile workspace', () => {
  let root: ReturnType<typeof tempDir>;
  let home: string;
  let count = 0;
  const newWorkspace = (): string => {
    const dir = join(root.path, `ws${count++}`);
    mkdirSync(dir);
    return dir;
  };

  before(() => {
    root = tempDir('shadow-hostile');
    home = join(root.path, 'home');
  });
  after(() => root.cleanup());

  it('snapshots a 200 MB file, symlink loops and a submodule-style .git file without following or copying them', async () => {
    const ws = newWorkspace();
    writeFileSync(join(ws, 'small.txt'), 'small\n');
    execFileSync('truncate', ['-s', '200M', join(ws, 'big.bin')]);
    symlinkSync('b', join(ws, 'a'));
    symlinkSync('a', join(ws, 'b'));
    mkdirSync(join(ws, 'loop'));
    symlinkSync('..', join(ws, 'loop', 'parent'));
    mkdirSync(join(ws, 'vendor', 'lib'), { recursive: true });
    writeFileSync(join(ws, 'vendor', 'lib', '.git'), 'gitdir: ../../.git/modules/lib\n');
    writeFileSync(join(ws, 'vendor', 'lib', 'code.c'), 'int main;\n');
    mkdirSync(join(ws, 'nested'));
    git(join(ws, 'nested'), 'init', '-q');
    writeFileSync(join(ws, 'nested', 'n.txt'), 'n\n');
    git(join(ws, 'nested'), 'add', 'n.txt');
    git(join(ws, 'nested'), 'commit', '-qm', 'nested');

    const store = await ShadowStore.open(home, ws);
    const started = Date.now();
    const snap = await store.snapshot();
    assert.ok(Date.now() - started < 10_000, 'reading 200 MB would take longer');
    assert.deepEqual(snap.skipped, [
      { path: 'big.bin', reason: 'too_large', size: 200 * 1024 * 1024 },
      { path: 'nested', reason: 'special' },
      { path: 'vendor/lib', reason: 'special' },
    ]);
    const listing = execFileSync('git', ['--git-dir', store.storeDir, 'ls-tree', '-r', snap.tree], { encoding: 'utf8' });
    assert.match(listing, /^120000 blob \w+\ta$/m);
    assert.match(listing, /^120000 blob \w+\tb$/m);
    assert.match(listing, /^120000 blob \w+\tloop\/parent$/m);
    assert.match(listing, /\tsmall.txt$/m);
    assert.doesNotMatch(listing, /big\.bin|vendor|nested|loop\/parent\//);
    assert.ok(duSize(store.storeDir) < 1024 * 1024, 'the store holds no copy of the big file');
    // A restore never touches a file the snapshot left out.
    const plan = await store.restorePlan(snap.tree, snap.tree);
    assert.deepEqual(plan, []);
  });

  it('reports a file whose name is not valid UTF-8 instead of storing it under a wrong name', async () => {
    const ws = newWorkspace();
    writeFileSync(Buffer.from(`${ws}/bad-\xff-name.txt`, 'latin1'), 'x\n');
    writeFileSync(join(ws, 'ok.txt'), 'ok\n');
    const store = await ShadowStore.open(home, ws);
    const snap = await store.snapshot();
    assert.deepEqual(snap.skipped, [{ path: 'bad-\uFFFD-name.txt', reason: 'unreadable' }]);
    assert.deepEqual((await store.changedFiles('4b825dc642cb6eb9a060e54bf8d69288fbee4904', snap.tree)).map((f) => f.path), ['ok.txt']);
  });

  it('leaves a file that grew over the cap out, and a restore does not touch it', async () => {
    const ws = newWorkspace();
    writeFileSync(join(ws, 'data.txt'), 'small\n');
    writeFileSync(join(ws, 'other.txt'), 'other\n');
    const store = await ShadowStore.open(home, ws, { maxFileBytes: 1000 });
    const first = await store.snapshot();
    writeFileSync(join(ws, 'data.txt'), 'x'.repeat(5000));
    writeFileSync(join(ws, 'other.txt'), 'changed\n');
    const second = await store.snapshot();
    assert.deepEqual(second.skipped, [{ path: 'data.txt', reason: 'too_large', size: 5000 }]);
    const plan = await store.restorePlan(second.tree, first.tree);
    assert.deepEqual(plan, [{ path: 'other.txt', action: 'restore' }]);
    await store.restore(first.tree, plan);
    assert.equal(readFileSync(join(ws, 'data.txt'), 'utf8'), 'x'.repeat(5000));
    assert.equal(readFileSync(join(ws, 'other.txt'), 'utf8'), 'other\n');
    // Back to the second snapshot, which left data.txt out: once it is small again and stored, a restore given the
    // target's skipped list does not delete it.
    writeFileSync(join(ws, 'data.txt'), 'small again\n');
    const third = await store.snapshot();
    assert.deepEqual(await store.restorePlan(third.tree, second.tree, { targetSkipped: second.skipped }), [{ path: 'other.txt', action: 'restore' }]);
    assert.deepEqual(await store.restorePlan(third.tree, second.tree), [
      { path: 'data.txt', action: 'delete' },
      { path: 'other.txt', action: 'restore' },
    ]);
  });

  it("leaves the user's repository byte for byte as it was: index, HEAD, refs, config, hooks, history", async () => {
    const ws = newWorkspace();
    git(ws, 'init', '-q');
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    writeFileSync(join(ws, '.gitignore'), 'ignored.log\n');
    git(ws, 'add', '.');
    git(ws, 'commit', '-qm', 'first');
    writeFileSync(join(ws, 'a.txt'), 'two\n');
    git(ws, 'commit', '-qam', 'second');
    writeFileSync(join(ws, 'staged.txt'), 'staged\n');
    git(ws, 'add', 'staged.txt');
    writeFileSync(join(ws, 'ignored.log'), 'log\n');
    const repoBefore = fingerprint(join(ws, '.git'));
    const statusBefore = git(ws, 'status', '--porcelain', '--ignored');

    const store = await ShadowStore.open(home, ws);
    const first = await store.snapshot();
    assert.deepEqual(execFileSync('git', ['--git-dir', store.storeDir, 'ls-tree', '--name-only', '-r', first.tree], { encoding: 'utf8' }).split('\n').filter(Boolean), ['.gitignore', 'a.txt', 'staged.txt']);
    writeFileSync(join(ws, 'a.txt'), 'three\n');
    writeFileSync(join(ws, 'new.txt'), 'new\n');
    const second = await store.snapshot();
    await store.fileDiff(first.tree, second.tree, 'a.txt');
    await store.rejectHunk(first.tree, second.tree, 'a.txt', 0);
    await store.restore(first.tree, await store.restorePlan((await store.snapshot()).tree, first.tree));

    assert.deepEqual(fingerprint(join(ws, '.git')), repoBefore);
    assert.equal(git(ws, 'status', '--porcelain', '--ignored'), statusBefore);
    assert.equal(readFileSync(join(ws, 'ignored.log'), 'utf8'), 'log\n');
  });

  it('never runs a filter, textconv, diff driver or fsmonitor planted in .gitattributes or the workspace .git/config', async () => {
    const ws = newWorkspace();
    const marker = join(root.path, 'planted-command-ran');
    git(ws, 'init', '-q');
    const command = `touch ${marker}`;
    git(ws, 'config', 'filter.evil.clean', command);
    git(ws, 'config', 'filter.evil.smudge', command);
    git(ws, 'config', 'filter.evil.process', command);
    git(ws, 'config', 'filter.evil.required', 'true');
    git(ws, 'config', 'diff.evil.textconv', command);
    git(ws, 'config', 'diff.evil.command', command);
    git(ws, 'config', 'diff.external', command);
    git(ws, 'config', 'core.fsmonitor', command);
    git(ws, 'config', 'core.hooksPath', '.githooks');
    mkdirSync(join(ws, '.githooks'));
    for (const hook of ['pre-commit', 'post-index-change', 'post-checkout']) writeFileSync(join(ws, '.githooks', hook), `#!/bin/sh\n${command}\n`, { mode: 0o755 });
    // CRLF conversion and an encoding conversion would change the bytes stored; ident would expand $Id$.
    writeFileSync(join(ws, '.gitattributes'), '* filter=evil diff=evil text eol=crlf ident\n*.txt working-tree-encoding=UTF-16\n');
    const bytes = 'line one\nline two $Id$\n';
    writeFileSync(join(ws, 'doc.txt'), bytes);
    writeFileSync(join(ws, 'code.c'), 'int a;\r\nint b;\n');

    // The host's own environment could carry git settings too (inherited from a shell): none reaches the store.
    const script = join(root.path, 'planted.sh');
    writeFileSync(script, `#!/bin/sh\n${command}\n`, { mode: 0o755 });
    const saved = { params: process.env.GIT_CONFIG_PARAMETERS, external: process.env.GIT_EXTERNAL_DIFF };
    process.env.GIT_CONFIG_PARAMETERS = `'core.fsmonitor'='${script}' 'filter.evil.clean'='${script}'`;
    process.env.GIT_EXTERNAL_DIFF = script;
    after(() => {
      for (const [key, value] of [['GIT_CONFIG_PARAMETERS', saved.params], ['GIT_EXTERNAL_DIFF', saved.external]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    });

    const store = await ShadowStore.open(home, ws);
    const first = await store.snapshot();
    writeFileSync(join(ws, 'doc.txt'), bytes.replace('one', 'ONE'));
    const second = await store.snapshot();
    const [file] = await store.changedFiles(first.tree, second.tree);
    assert.deepEqual(file, { path: 'doc.txt', status: 'modified', binary: false, additions: 1, deletions: 1 });
    assert.deepEqual((await store.fileDiff(first.tree, second.tree, 'doc.txt')).hunks[0].lines, ['-line one', '+line ONE', ' line two $Id$']);
    await store.rejectFile(first.tree, second.tree, 'doc.txt');
    await store.restore(first.tree, await store.restorePlan(second.tree, first.tree));

    assert.equal(existsSync(marker), false, 'a planted command ran');
    const blob = (path: string) => execFileSync('git', ['--git-dir', store.storeDir, 'cat-file', 'blob', `${first.tree}:${path}`]);
    assert.equal(blob('doc.txt').toString('utf8'), bytes);
    assert.equal(blob('code.c').toString('utf8'), 'int a;\r\nint b;\n');
    assert.equal(readFileSync(join(ws, 'doc.txt'), 'utf8'), bytes);
  });

  it('never rejects a hunk or a file through a link an agent put in place of the file or of its folder', async () => {
    const ws = newWorkspace();
    const outside = join(root.path, 'outside-reject');
    mkdirSync(outside);
    const secret = join(outside, 'secret.txt');
    const lines = (edit: string | null) => Array.from({ length: 10 }, (_, i) => (i === 4 && edit ? edit : `line ${i + 1}`)).join('\n') + '\n';
    writeFileSync(secret, lines('agent'));
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'src', 'f.txt'), lines(null));
    writeFileSync(join(ws, 'src', 'g.txt'), 'g\n');
    const store = await ShadowStore.open(home, ws);
    const first = await store.snapshot();
    writeFileSync(join(ws, 'src', 'f.txt'), lines('agent'));
    const second = await store.snapshot();
    // The file itself becomes a link to a file outside with the very lines the hunk expects.
    execFileSync('rm', [join(ws, 'src', 'f.txt')]);
    symlinkSync(secret, join(ws, 'src', 'f.txt'));
    await assert.rejects(store.rejectHunk(first.tree, second.tree, 'src/f.txt', 0), /can no longer be rejected/);
    assert.equal(readFileSync(secret, 'utf8'), lines('agent'));
    // The folder becomes a link to the outside folder: rejecting g.txt's deletion would write through it.
    execFileSync('rm', ['-r', join(ws, 'src')]);
    symlinkSync(outside, join(ws, 'src'));
    await assert.rejects(store.rejectFile(first.tree, second.tree, 'src/f.txt'), UnsafeWorkspacePathError);
    const third = await store.snapshot();
    await assert.rejects(store.rejectFile(first.tree, third.tree, 'src/g.txt'), UnsafeWorkspacePathError);
    assert.deepEqual(readdirSync(outside), ['secret.txt']);
    assert.equal(readFileSync(secret, 'utf8'), lines('agent'));
  });

  it('refuses to write outside the workspace: "..", absolute paths, .git, and a folder replaced by a symlink', async () => {
    const ws = newWorkspace();
    const outside = join(root.path, 'outside');
    mkdirSync(outside);
    mkdirSync(join(ws, 'conf'));
    writeFileSync(join(ws, 'conf', 'app.ini'), 'safe\n');
    const store = await ShadowStore.open(home, ws);
    const first = await store.snapshot();

    for (const path of ['../escape.txt', '/etc/passwd', 'conf/../../escape.txt', '.git/config', '.meta/session.json', 'a//b']) {
      await assert.rejects(store.restore(first.tree, [{ path, action: 'delete' }]), UnsafeWorkspacePathError, path);
    }
    // One unsafe path refuses the whole plan: nothing of it is applied.
    await assert.rejects(
      store.restore(first.tree, [
        { path: 'conf/app.ini', action: 'delete' },
        { path: '../escape.txt', action: 'delete' },
      ]),
      UnsafeWorkspacePathError,
    );
    assert.equal(readFileSync(join(ws, 'conf', 'app.ini'), 'utf8'), 'safe\n');
    // An agent replaced the folder by a link to a folder outside.
    execFileSync('rm', ['-r', join(ws, 'conf')]);
    symlinkSync(outside, join(ws, 'conf'));
    const second = await store.snapshot();
    // A plan that writes through the link is refused, with a message that says why, and nothing lands outside.
    await assert.rejects(store.restore(first.tree, [{ path: 'conf/app.ini', action: 'recreate' }]), (error: unknown) => {
      assert.ok(error instanceof UnsafeWorkspacePathError);
      assert.match(error.message, /symbolic link/);
      return true;
    });
    assert.deepEqual(readdirSync(outside), []);
    assert.equal(lstatSync(join(ws, 'conf')).isSymbolicLink(), true);
    // The restore's own plan removes the link first, then puts the folder back as a folder.
    const plan = await store.restorePlan(second.tree, first.tree);
    assert.deepEqual(
      plan.sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: 'conf', action: 'delete' },
        { path: 'conf/app.ini', action: 'recreate' },
      ],
    );
    await store.restore(first.tree, plan);
    assert.equal(lstatSync(join(ws, 'conf')).isDirectory(), true);
    assert.equal(readFileSync(join(ws, 'conf', 'app.ini'), 'utf8'), 'safe\n');
    assert.deepEqual(readdirSync(outside), []);
  });
});
