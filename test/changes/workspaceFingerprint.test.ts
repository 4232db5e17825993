// A snapshot of a workspace nothing changed in since the store's last snapshot is that snapshot's tree, taken without
// git (a conversation's prompt waits for its "before" snapshot). These tests prove the shortcut is only taken when it
// is right: every way a hostile agent (or a hurried user) could change the workspace while keeping what a quick
// look sees is caught, and the next snapshot holds the change.
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ShadowStore } from '../../src-main/node/changes/shadowStore';
import { MAX_FINGERPRINT_ENTRIES } from '../../src-main/node/changes/workspaceFingerprint';
import { tempDir } from '../helpers';

describe('snapshots of an unchanged workspace', () => {
  let root: ReturnType<typeof tempDir>;
  let count = 0;

  /** A store on a fresh workspace with `files`, snapshotted once, its fingerprint recorded. */
  const storeWith = async (files: Record<string, string>): Promise<{ ws: string; store: ShadowStore; tree: string }> => {
    const ws = join(root.path, `ws${count}`);
    const home = join(root.path, `home${count++}`);
    mkdirSync(ws);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(ws, path, '..'), { recursive: true });
      writeFileSync(join(ws, path), content);
    }
    const store = await ShadowStore.open(home, ws);
    const { tree } = await store.snapshot();
    await store.idle();
    return { ws, store, tree };
  };

  /**
   * Runs `task` while the store's index is garbage: git fails on it, so a snapshot that answers did not run git.
   * The index is put back afterwards.
   */
  const withoutGit = async <T>(store: ShadowStore, task: () => Promise<T>): Promise<T> => {
    await store.idle();
    const index = join(store.storeDir, 'index');
    copyFileSync(index, `${index}.kept`);
    writeFileSync(index, 'not an index');
    try {
      return await task();
    } finally {
      renameSync(`${index}.kept`, index);
    }
  };

  /** The paths that changed between `tree` and a snapshot taken now. */
  const changedSince = async (store: ShadowStore, tree: string): Promise<string[]> => {
    const now = await store.snapshot();
    return (await store.changedFiles(tree, now.tree)).map((file) => `${file.status} ${file.path}`).sort();
  };

  before(() => {
    root = tempDir('fingerprint');
  });
  after(() => root.cleanup());

  it('is the last tree, without git; what an ignored folder holds does not count', async () => {
    const { ws, store, tree } = await storeWith({ 'a.txt': 'a\n', 'src/b.ts': 'b\n', '.gitignore': 'node_modules/\n', 'node_modules/x/index.js': '1\n' });
    assert.equal((await store.snapshot()).tree, tree);
    writeFileSync(join(ws, 'node_modules/x/index.js'), 'ignored, changed\n');
    writeFileSync(join(ws, 'node_modules/x/new.js'), 'ignored, new\n');
    assert.equal((await withoutGit(store, () => store.snapshot())).tree, tree, 'answered with the index broken: no git ran');
    writeFileSync(join(ws, 'a.txt'), 'A\n');
    await assert.rejects(withoutGit(store, () => store.snapshot()), 'a change goes to git, which fails on the broken index');
    assert.deepEqual(await changedSince(store, tree), ['modified a.txt']);
  });

  it('sees a same-size rewrite right after a snapshot, even with its mtime put back', async () => {
    const { ws, store, tree } = await storeWith({ 'a.txt': 'aaaa\n' });
    const { mtime } = statSync(join(ws, 'a.txt'));
    writeFileSync(join(ws, 'a.txt'), 'bbbb\n');
    utimesSync(join(ws, 'a.txt'), mtime, mtime);
    assert.deepEqual(await changedSince(store, tree), ['modified a.txt']);
  });

  it('sees a same-size rewrite of an old file with its old mtime put back', async () => {
    const { ws, store } = await storeWith({ 'old.txt': 'aaaa\n' });
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(ws, 'old.txt'), hourAgo, hourAgo);
    const tree = (await store.snapshot()).tree;
    await store.idle();
    writeFileSync(join(ws, 'old.txt'), 'bbbb\n');
    utimesSync(join(ws, 'old.txt'), hourAgo, hourAgo);
    assert.deepEqual(await changedSince(store, tree), ['modified old.txt']);
  });

  it('sees a new file in a folder that held only ignored files, and in a new nested folder', async () => {
    const { ws, store, tree } = await storeWith({ 'logs/run.log': 'x\n', '.gitignore': '*.log\n', 'a.txt': 'a\n' });
    writeFileSync(join(ws, 'logs/notes.txt'), 'planted\n');
    mkdirSync(join(ws, 'deep/er'), { recursive: true });
    writeFileSync(join(ws, 'deep/er/new.txt'), 'planted\n');
    assert.deepEqual(await changedSince(store, tree), ['added deep/er/new.txt', 'added logs/notes.txt']);
  });

  it('sees a deletion, a rename, a chmod +x and a link pointed elsewhere', async () => {
    const { ws, store, tree } = await storeWith({ 'gone.txt': 'g\n', 'from.txt': 'f\n', 'run.sh': 'echo\n', 'x1': '1', 'x2': '2' });
    symlinkSync('x1', join(ws, 'link'));
    const withLink = (await store.snapshot()).tree;
    assert.notEqual(withLink, tree);
    await store.idle();
    unlinkSync(join(ws, 'gone.txt'));
    renameSync(join(ws, 'from.txt'), join(ws, 'to.txt'));
    chmodSync(join(ws, 'run.sh'), 0o755);
    unlinkSync(join(ws, 'link'));
    symlinkSync('x2', join(ws, 'link'));
    assert.deepEqual(await changedSince(store, withLink), ['deleted gone.txt', 'modified link', 'modified run.sh', 'renamed to.txt']);
  });

  it('sees a file a self-ignoring .gitignore stops ignoring', async () => {
    const { ws, store, tree } = await storeWith({ '.gitignore': '.gitignore\nsecret.txt\n', 'secret.txt': 's\n', 'a.txt': 'a\n' });
    writeFileSync(join(ws, '.gitignore'), '.gitignore\n');
    assert.deepEqual(await changedSince(store, tree), ['added secret.txt']);
  });

  it('sees an edit to a tracked file in a folder that became ignored (git decides: no shortcut there)', async () => {
    const { ws, store } = await storeWith({ 'build/out.txt': 'one\n' });
    writeFileSync(join(ws, '.gitignore'), 'build/\n');
    const tree = (await store.snapshot()).tree;
    await store.idle();
    writeFileSync(join(ws, 'build/out.txt'), 'two\n');
    assert.deepEqual(await changedSince(store, tree), ['modified build/out.txt']);
  });

  it('sees a file replaced by a folder, and a folder replaced by a file', async () => {
    const { ws, store, tree } = await storeWith({ 'thing': 'file\n', 'dir/inside.txt': 'i\n' });
    unlinkSync(join(ws, 'thing'));
    mkdirSync(join(ws, 'thing'));
    writeFileSync(join(ws, 'thing/now.txt'), 'n\n');
    rmSync(join(ws, 'dir'), { recursive: true });
    writeFileSync(join(ws, 'dir'), 'file now\n');
    assert.deepEqual(await changedSince(store, tree), ['added dir', 'added thing/now.txt', 'deleted dir/inside.txt', 'deleted thing']);
  });

  it('a workspace too large to fingerprint is snapshotted by git every time, and still right', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= MAX_FINGERPRINT_ENTRIES; i++) files[`f/${i % 50}/${i}.txt`] = `${i}\n`;
    const { ws, store, tree } = await storeWith(files);
    await assert.rejects(withoutGit(store, () => store.snapshot()), 'no shortcut: git ran (and failed on the broken index)');
    writeFileSync(join(ws, 'f/7/7.txt'), 'seven\n');
    assert.deepEqual(await changedSince(store, tree), ['modified f/7/7.txt']);
  });
});
