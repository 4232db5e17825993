// omni.files_create: create-only writes through the real WASM sandbox (a guest in its own process, the host's path
// checks and grants), and the bundled scaffolder routing around files that exist, through `omni agent run`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { ModuleRefusedError } from '../../src-main/node/sandbox/wasm/sandboxErrors';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { FixedGrants } from './fixedGrants';
import { callingGuest, type GuestResponse } from './guests';
import { AGENT, invokeInput, sandboxHarness, SESSION } from './harness';

const code = (response: GuestResponse): string => (response.ok ? 'ok' : response.error.code);
const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('files_create: writes only where nothing is, inside the granted root', () => {
  let h: ReturnType<typeof sandboxHarness>;
  let workspace: string;
  let outside: string;

  before(() => {
    h = sandboxHarness();
    workspace = join(h.dir, 'workspace');
    outside = join(h.dir, 'outside');
    mkdirSync(join(workspace, 'lib'), { recursive: true });
    mkdirSync(join(workspace, '.meta'));
    mkdirSync(outside);
    writeFileSync(join(workspace, 'lib/keep.txt'), 'the user wrote this');
    writeFileSync(join(outside, 'target.txt'), 'outside');
    symlinkSync('keep.txt', join(workspace, 'lib/inner-link.txt'));
    symlinkSync(join(outside, 'target.txt'), join(workspace, 'lib/out-link.txt'));
    symlinkSync(join(outside, 'not-yet.txt'), join(workspace, 'lib/dangling.txt'));
    symlinkSync(outside, join(workspace, 'linked-dir'));
    h.consent.grant(AGENT, SESSION, 'files.write', '**');
  });
  after(() => h.cleanup());

  it('answers "exists" for an existing file, folder or link and leaves it untouched; creates new files whole', async () => {
    const { agent, responses } = await h.run(
      callingGuest([
        { fn: 'files_create', req: { path: 'lib/keep.txt', data_b64: b64('overwritten!') } },
        { fn: 'files_create', req: { path: 'lib', data_b64: b64('x') } },
        { fn: 'files_create', req: { path: 'lib/inner-link.txt', data_b64: b64('x') } },
        { fn: 'files_create', req: { path: 'lib/dangling.txt', data_b64: b64('through the link') } },
        { fn: 'files_create', req: { path: 'lib/new/deep.txt', data_b64: b64('fresh') } },
        { fn: 'files_create', req: { path: 'lib/new/deep.txt', data_b64: b64('second time') } },
      ]),
      ['files.write'],
      workspace,
    );
    await agent.invoke(invokeInput());
    assert.deepEqual(responses.map(code), ['exists', 'exists', 'exists', 'exists', 'ok', 'exists']);
    assert.match(!responses[0].ok ? responses[0].error.message : '', /"lib\/keep\.txt" already exists .*nothing was written/);
    assert.equal(readFileSync(join(workspace, 'lib/keep.txt'), 'utf8'), 'the user wrote this');
    assert.equal(readlinkSync(join(workspace, 'lib/inner-link.txt')), 'keep.txt');
    assert.equal(existsSync(join(outside, 'not-yet.txt')), false, 'a dangling link is not followed to create its target');
    assert.deepEqual(responses[4], { ok: true, path: 'lib/new/deep.txt', written: 5, created: true });
    assert.equal(readFileSync(join(workspace, 'lib/new/deep.txt'), 'utf8'), 'fresh');
    assert.deepEqual(readdirSync(join(workspace, 'lib/new')), ['deep.txt'], 'no temporary file is left behind');
    assert.ok(lstatSync(join(workspace, 'lib/new/deep.txt')).nlink === 1, 'the temporary link is gone');
    assert.deepEqual(
      h.audited.map((e) => [e.type, e.payload]),
      [['agent.file_write', { path: 'lib/new/deep.txt', bytes: 5, created: true }]],
      'only the creation is in the ledger',
    );
    agent.kill();
  });

  it('keeps every write refusal: "..", absolute, a symlinked folder or file leading out, .meta', async () => {
    const { agent, responses } = await h.run(
      callingGuest([
        { fn: 'files_create', req: { path: '../outside/new.txt', data_b64: 'eA==' } },
        { fn: 'files_create', req: { path: join(outside, 'new.txt'), data_b64: 'eA==' } },
        { fn: 'files_create', req: { path: 'linked-dir/new.txt', data_b64: 'eA==' } },
        { fn: 'files_create', req: { path: 'lib/out-link.txt', data_b64: 'eA==' } },
        { fn: 'files_create', req: { path: '.meta/new.md', data_b64: 'eA==' } },
      ]),
      ['files.write'],
      workspace,
    );
    await agent.invoke(invokeInput());
    assert.deepEqual(responses.map(code), ['outside_root', 'outside_root', 'outside_root', 'outside_root', 'capability_denied']);
    assert.deepEqual(readdirSync(outside).sort(), ['target.txt']);
    assert.equal(readFileSync(join(outside, 'target.txt'), 'utf8'), 'outside');
    assert.equal(existsSync(join(workspace, '.meta/new.md')), false);
    agent.kill();
  });

  it('needs a files.write grant covering the path: without one the answer is capability_denied, not whether the file exists', async () => {
    const grants = new FixedGrants();
    grants.grant(AGENT, SESSION, 'files.write', 'other/**');
    const scoped = sandboxHarness({ consent: grants });
    try {
      const { agent, responses } = await scoped.run(
        callingGuest([
          { fn: 'files_create', req: { path: 'lib/keep.txt', data_b64: 'eA==' } },
          { fn: 'files_create', req: { path: 'lib/fresh.txt', data_b64: 'eA==' } },
        ]),
        ['files.write'],
        workspace,
      );
      await agent.invoke(invokeInput());
      assert.deepEqual(responses.map(code), ['capability_denied', 'capability_denied']);
      assert.equal(existsSync(join(workspace, 'lib/fresh.txt')), false);
      agent.kill();
    } finally {
      scoped.cleanup();
    }
  });

  it('is refused before the module runs when the manifest does not declare files.write', async () => {
    await assert.rejects(
      h.run(callingGuest([{ fn: 'files_create', req: { path: 'x.txt', data_b64: 'eA==' } }]), ['files.read'], workspace),
      (error: unknown) => error instanceof ModuleRefusedError && error.problems.some((p) => p.code === 'not_declared' && p.subject === 'omni.files_create'),
    );
  });
});

test('scaffolder: a file that exists is left exactly as it was and reported; the missing ones are created', { timeout: 120_000 }, (t) => {
  const home = tempDir('home');
  const workspace = tempDir('ws');
  t.after(() => {
    home.cleanup();
    workspace.cleanup();
  });
  mkdirSync(join(workspace.path, 'demo-lib'));
  writeFileSync(join(workspace.path, 'demo-lib/README.md'), '# my own notes\n');
  const cli = omniCli();
  const result = spawnSync(
    process.execPath,
    [cli, 'agent', 'run', 'scaffolder', '--workspace', workspace.path, '--prompt', 'scaffold demo-lib', '--home', home.path, '--grant', 'files.write:demo-lib/**@10m'],
    { encoding: 'utf8', timeout: 90_000 },
  );
  assert.equal(result.status, 0, result.stderr + result.stdout);
  const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; content_type?: string; data?: string });
  const markdown = events.filter((e) => e.content_type === 'text/markdown').map((e) => e.data).join('');
  assert.match(markdown, /- `demo-lib\/README\.md` exists already: left as it is/);
  assert.match(markdown, /- wrote `demo-lib\/package\.json`/);
  assert.match(markdown, /Done: `cd demo-lib/);
  const diffs = events.filter((e) => e.content_type === 'text/x-diff').map((e) => e.data ?? '');
  assert.deepEqual(diffs.map((d) => /\+\+\+ b\/(.*)/.exec(d)?.[1]), ['demo-lib/package.json', 'demo-lib/tsconfig.json', 'demo-lib/src/index.ts'], 'no diff card for the file it did not write');
  assert.equal(readFileSync(join(workspace.path, 'demo-lib/README.md'), 'utf8'), '# my own notes\n');
  assert.match(readFileSync(join(workspace.path, 'demo-lib/src/index.ts'), 'utf8'), /export function hello/);
});
