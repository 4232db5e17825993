import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RpcError } from '../../src-preload/contract';
import { MAX_LISTED_FOLDERS } from '../../src-main/node/sessions/folderListing';
import { hostWithWorkspace } from '../server/connect';

/** The call's refusal, or a failure if it was answered. */
async function refusal(call: Promise<unknown>): Promise<RpcError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof RpcError, `expected an RpcError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call was answered; expected a refusal');
}

test('a folder listing names its sub-folders only: no files, no broken links, hidden ones on request', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const root = realpathSync(workspace.path);
  for (const name of ['beta', 'alpha', 'Gamma10', 'Gamma9', '.git']) mkdirSync(join(root, name));
  writeFileSync(join(root, 'secret.txt'), 'token=abc');
  symlinkSync(join(root, 'alpha'), join(root, 'link-to-alpha'));
  symlinkSync(join(root, 'secret.txt'), join(root, 'link-to-file'));
  symlinkSync(join(root, 'nowhere'), join(root, 'broken-link'));

  const listing = await client.call('folder.list', { path: root });

  assert.equal(listing.path, root);
  assert.equal(listing.parent, join(root, '..').replace(/\/$/, ''));
  assert.deepEqual(listing.folders.map((f) => f.name), ['alpha', 'beta', 'Gamma9', 'Gamma10', 'link-to-alpha']);
  assert.deepEqual(listing.folders[0], { name: 'alpha', path: join(root, 'alpha'), hidden: false });
  assert.equal(listing.truncated, false);
  assert.ok(!JSON.stringify(listing).includes('secret'), 'nothing of a file leaves the host, not even its name');

  const withHidden = await client.call('folder.list', { path: root, includeHidden: true });
  assert.deepEqual(withHidden.folders.filter((f) => f.hidden).map((f) => f.name), ['.git']);
});

test('a folder listing resolves links and ".", and starts at the home folder when given no path', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const root = realpathSync(workspace.path);
  mkdirSync(join(root, 'real', 'inner'), { recursive: true });
  symlinkSync(join(root, 'real'), join(root, 'alias'));

  const listing = await client.call('folder.list', { path: `${root}/alias/./` });
  assert.equal(listing.path, join(root, 'real'), 'the real path is shown, so the user sees where they are');
  assert.deepEqual(listing.folders.map((f) => f.path), [join(root, 'real', 'inner')]);

  const home = await client.call('folder.list', {});
  assert.equal(home.path, realpathSync(home.home));
  const top = await client.call('folder.list', { path: '/' });
  assert.equal(top.parent, null, 'the root has nothing above it');
});

test('a folder listing refuses relative paths, NUL bytes, missing folders and files, each with a typed error', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  writeFileSync(join(workspace.path, 'notes.txt'), 'x');

  const relative = await refusal(client.call('folder.list', { path: 'projects/app' }));
  assert.equal(relative.code, 'INVALID_PARAMS');
  assert.match(relative.message, /absolute path/);
  const nul = await refusal(client.call('folder.list', { path: `${workspace.path}\0/etc` }));
  assert.equal(nul.code, 'INVALID_PARAMS');
  assert.match(nul.message, /NUL/);
  const missing = await refusal(client.call('folder.list', { path: join(workspace.path, 'gone') }));
  assert.equal(missing.code, 'NOT_FOUND');
  assert.match(missing.message, /gone" does not exist/);
  const file = await refusal(client.call('folder.list', { path: join(workspace.path, 'notes.txt') }));
  assert.equal(file.code, 'INVALID_PARAMS');
  assert.match(file.message, /is a file/);
});

test('a folder with more sub-folders than a listing carries says it was cut', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  for (let i = 0; i <= MAX_LISTED_FOLDERS; i++) mkdirSync(join(workspace.path, `d${i}`));
  const listing = await client.call('folder.list', { path: workspace.path });
  assert.equal(listing.folders.length, MAX_LISTED_FOLDERS);
  assert.equal(listing.truncated, true);
});

test('creating a folder makes exactly the path typed and every missing folder above it, and records it', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const root = realpathSync(workspace.path);

  const made = await client.call('folder.create', { path: `${root}/new//project/` });

  assert.deepEqual(made, { path: join(root, 'new', 'project'), created: [join(root, 'new'), join(root, 'new', 'project')] });
  assert.ok(existsSync(join(root, 'new', 'project')));
  const again = await client.call('folder.create', { path: join(root, 'new', 'project') });
  assert.deepEqual(again.created, [], 'an existing folder is not made twice');
  const entries = await client.call('ledger.list', { limit: 10 });
  const recorded = entries.filter((entry) => entry.type === 'folder.create');
  assert.equal(recorded.length, 1, 'the folder made is recorded once; the no-op is not');
  assert.deepEqual(recorded[0].payload, { path: join(root, 'new', 'project'), created: made.created });
});

test('creating a folder refuses "..", relative paths and paths through a file, and makes nothing', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const root = realpathSync(workspace.path);
  writeFileSync(join(root, 'file'), 'x');

  const climbing = await refusal(client.call('folder.create', { path: `${root}/inside/../../escaped` }));
  assert.equal(climbing.code, 'INVALID_PARAMS');
  assert.match(climbing.message, /"\.\." segment/);
  assert.ok(!existsSync(join(root, 'inside')) && !existsSync(join(root, '..', 'escaped')), 'nothing was made');
  const relative = await refusal(client.call('folder.create', { path: 'project' }));
  assert.equal(relative.code, 'INVALID_PARAMS');
  const throughFile = await refusal(client.call('folder.create', { path: join(root, 'file', 'sub') }));
  assert.equal(throughFile.code, 'CONFLICT');
  assert.match(throughFile.message, /is a file/);
});
