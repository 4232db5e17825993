import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MetaPathError, MetaState } from '../../../src-main/node/goal/metaShell';
import { createNativeSandbox } from '../../../src-main/node/sandbox/native/nativeSandbox';
import { callingGuest, type GuestResponse } from '../../sandbox/guests';
import { invokeInput, sandboxHarness, AGENT, SESSION } from '../../sandbox/harness';
import { runSandboxed, shPolicy } from '../../sandbox/native/runSandboxed';

const code = (response: GuestResponse): string => (response.ok ? 'ok' : response.error.code);
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('.meta is read-only to agents: WASM host calls', () => {
  let h: ReturnType<typeof sandboxHarness>;
  let workspace: string;
  before(() => {
    h = sandboxHarness();
    workspace = join(h.dir, 'workspace');
    mkdirSync(join(workspace, '.meta'), { recursive: true });
    writeFileSync(join(workspace, '.meta/context.md'), '# Project: SuperTasker CLI\n');
    writeFileSync(join(workspace, '.meta/session.json'), '{}');
    // A link to .meta that something (a cloned repository, an earlier native run) left in the workspace.
    symlinkSync('.meta', join(workspace, 'meta-link'));
    h.consent.grant(AGENT, SESSION, 'files.read', '**');
    h.consent.grant(AGENT, SESSION, 'files.write', '**');
  });
  after(() => h.cleanup());

  it('refuses every way of writing context.md or session.json, even with files.write on the whole workspace', async () => {
    const { agent, responses } = await h.run(
      callingGuest([
        { fn: 'files_write', req: { path: '.meta/context.md', data_b64: b64('forged') } },
        { fn: 'files_write', req: { path: './.meta/session.json', data_b64: b64('{}') } },
        { fn: 'files_write', req: { path: 'notes/../.meta/context.md', data_b64: b64('forged') } },
        { fn: 'files_create', req: { path: '.meta/new.md', data_b64: b64('x') } },
        { fn: 'files_write', req: { path: 'meta-link/context.md', data_b64: b64('forged through a link') } },
        { fn: 'files_create', req: { path: 'meta-link/other.md', data_b64: b64('x') } },
        { fn: 'files_read', req: { path: '.meta/context.md' } },
      ]),
      ['files.read', 'files.write'],
      workspace,
    );
    await agent.invoke(invokeInput());
    // ".." is refused before .meta is even looked at (outside_root); every other write is capability_denied.
    assert.deepEqual(responses.map(code), ['capability_denied', 'capability_denied', 'outside_root', 'capability_denied', 'capability_denied', 'capability_denied', 'ok']);
    assert.match(!responses[4].ok ? responses[4].error.message : '', /"meta-link\/context\.md" leads to "\.meta\/context\.md"/);
    assert.equal(readFileSync(join(workspace, '.meta/context.md'), 'utf8'), '# Project: SuperTasker CLI\n');
    assert.equal(readFileSync(join(workspace, '.meta/session.json'), 'utf8'), '{}');
    assert.equal(existsSync(join(workspace, '.meta/new.md')), false);
    assert.equal(existsSync(join(workspace, '.meta/other.md')), false);
    assert.deepEqual(h.audited.filter((e) => e.type === 'agent.file_write'), [], 'no write happened, so none is recorded');
    agent.kill();
  });
});

describe('.meta is read-only to agents: the native sandbox', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'omni-meta-native-')));
  const sandbox = createNativeSandbox();
  after(() => rmSync(root, { recursive: true, force: true }));

  it('a run reads context.md but cannot change, replace, rename or add to .meta', async () => {
    const workspace = join(root, 'ws1');
    const meta = new MetaState(workspace);
    mkdirSync(workspace);
    await meta.initialize({ sessionId: 'ses-native' });
    writeFileSync(meta.paths.context, 'CONTEXT');
    const session = readFileSync(meta.paths.session, 'utf8');
    const result = await runSandboxed(
      sandbox,
      shPolicy(workspace, 'cat .meta/context.md; echo; echo forged > .meta/context.md; echo {} > .meta/session.json; touch .meta/new; mv .meta .meta-moved; rm -rf .meta; echo done'),
    );
    assert.match(result.output, /^CONTEXT$/m);
    assert.match(result.output, /Read-only file system/);
    assert.match(result.output, /^done$/m);
    assert.equal(readFileSync(meta.paths.context, 'utf8'), 'CONTEXT');
    assert.equal(readFileSync(meta.paths.session, 'utf8'), session);
    assert.equal(existsSync(join(meta.paths.dir, 'new')), false);
    assert.equal(existsSync(join(workspace, '.meta-moved')), false);
  });

  it('a run in a workspace without .meta cannot create one (it could plant a context.md or a link the host would follow)', async () => {
    const workspace = join(root, 'ws2');
    mkdirSync(workspace);
    const result = await runSandboxed(sandbox, shPolicy(workspace, 'mkdir -p .meta && echo planted > .meta/context.md; ln -s /tmp .meta 2>&1; echo done'));
    assert.match(result.output, /^done$/m);
    const planted = existsSync(join(workspace, '.meta/context.md')) || (existsSync(join(workspace, '.meta')) && lstatSync(join(workspace, '.meta')).isSymbolicLink());
    assert.equal(planted, false, `the run created .meta: ${result.output}`);
  });

  it('the host refuses a .meta that is a symbolic link instead of writing where it points', async () => {
    const workspace = join(root, 'ws3');
    mkdirSync(join(root, 'elsewhere'));
    mkdirSync(workspace);
    symlinkSync(join(root, 'elsewhere'), join(workspace, '.meta'));
    await assert.rejects(new MetaState(workspace).initialize({ sessionId: 's' }), MetaPathError);
    assert.equal(existsSync(join(root, 'elsewhere', 'session.json')), false);
  });
});
