// A WASM agent's staged view of the workspace (spawn_agent's rollback for WASM agents): writes are held outside the
// workspace, the agent sees its own writes, the workspace changes only at commit, and discard leaves it untouched.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { HostCallError } from '../../src-main/node/sandbox/wasm/hostCallError';
import { StagedWorkspaceFiles } from '../../src-main/node/sandbox/wasm/stagedWorkspaceFiles';
import { tempDir } from '../helpers';

const code = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof HostCallError) return error.code;
    throw error;
  }
  return 'ok';
};

describe('StagedWorkspaceFiles', () => {
  let dir: ReturnType<typeof tempDir>;
  let workspace: string;
  let staging: string;
  beforeEach(() => {
    dir = tempDir('staged');
    workspace = join(dir.path, 'ws');
    staging = join(dir.path, 'staging');
    mkdirSync(join(workspace, 'docs'), { recursive: true });
    mkdirSync(staging);
    writeFileSync(join(workspace, 'docs', 'readme.md'), 'original');
  });
  afterEach(() => dir.cleanup());

  it('holds writes outside the workspace, shows them to the agent, and commits them on success', () => {
    const files = new StagedWorkspaceFiles(workspace, { stagingParent: staging });
    files.write('docs/readme.md', Buffer.from('rewritten'));
    files.write('new/deep/file.txt', Buffer.from('fresh'));
    files.create('docs/added.md', Buffer.from('added'));

    assert.equal(readFileSync(join(workspace, 'docs', 'readme.md'), 'utf8'), 'original', 'the workspace is untouched');
    assert.equal(existsSync(join(workspace, 'new')), false, 'not even a folder is made');
    assert.equal(files.read('docs/readme.md').data.toString(), 'rewritten', 'the agent reads its own write');
    assert.equal(files.read('new/deep/file.txt').data.toString(), 'fresh');
    assert.deepEqual(files.list('docs').entries.map((e) => `${e.name}:${e.kind}:${e.size}`).sort(), ['added.md:file:5', 'readme.md:file:9']);
    assert.deepEqual(files.list('').entries.map((e) => `${e.name}:${e.kind}`).sort(), ['docs:dir', 'new:dir']);
    assert.deepEqual(files.list('new').entries.map((e) => `${e.name}:${e.kind}`), ['deep:dir']);
    assert.equal(code(() => files.create('docs/added.md', Buffer.from('again'))), 'exists', 'create-only sees staged files too');
    assert.equal(code(() => files.create('docs/readme.md', Buffer.from('again'))), 'exists');

    const result = files.commit();
    assert.deepEqual(result, { committed: ['docs/readme.md', 'new/deep/file.txt', 'docs/added.md'], conflicts: [] });
    assert.equal(readFileSync(join(workspace, 'docs', 'readme.md'), 'utf8'), 'rewritten');
    assert.equal(readFileSync(join(workspace, 'new', 'deep', 'file.txt'), 'utf8'), 'fresh');
    assert.equal(readFileSync(join(workspace, 'docs', 'added.md'), 'utf8'), 'added');
    assert.deepEqual(readdirSync(staging), [], 'the staging folder is removed');
    assert.equal(code(() => files.write('late.txt', Buffer.from('x'))), 'bad_request', 'no writes after the turn');
  });

  it('discard leaves the workspace exactly as it was', () => {
    const files = new StagedWorkspaceFiles(workspace, { stagingParent: staging });
    files.write('docs/readme.md', Buffer.from('rewritten'));
    files.write('other/x.txt', Buffer.from('x'));
    files.discard();
    assert.deepEqual(readdirSync(workspace).sort(), ['docs']);
    assert.equal(readFileSync(join(workspace, 'docs', 'readme.md'), 'utf8'), 'original');
    assert.deepEqual(readdirSync(staging), []);
  });

  it('checks paths against the real workspace: no way out, through a link or otherwise', () => {
    mkdirSync(join(dir.path, 'outside'));
    symlinkSync(join(dir.path, 'outside'), join(workspace, 'escape'));
    const files = new StagedWorkspaceFiles(workspace, { stagingParent: staging });
    assert.equal(code(() => files.write('escape/x.txt', Buffer.from('x'))), 'outside_root');
    assert.equal(code(() => files.write('../x.txt', Buffer.from('x'))), 'outside_root');
    assert.equal(code(() => files.write('/etc/x', Buffer.from('x'))), 'outside_root');
    files.commit();
    assert.deepEqual(readdirSync(join(dir.path, 'outside')), []);
  });

  it('a create-only file that someone else made meanwhile is a conflict at commit, not overwritten', () => {
    const files = new StagedWorkspaceFiles(workspace, { stagingParent: staging });
    files.create('docs/notes.md', Buffer.from('the agent'));
    files.write('docs/other.md', Buffer.from('kept'));
    writeFileSync(join(workspace, 'docs', 'notes.md'), 'the user');
    const result = files.commit();
    assert.deepEqual(result.committed, ['docs/other.md']);
    assert.equal(result.conflicts.length, 1);
    assert.match(result.conflicts[0].message, /"docs\/notes\.md" already exists/);
    assert.equal(readFileSync(join(workspace, 'docs', 'notes.md'), 'utf8'), 'the user');
  });
});
