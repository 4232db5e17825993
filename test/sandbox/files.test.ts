import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callingGuest, type GuestResponse } from './guests';
import { AGENT, invokeInput, sandboxHarness, SESSION } from './harness';

const SECRET = 'the contents of a file outside the workspace';

function code(response: GuestResponse): string {
  return response.ok ? 'ok' : response.error.code;
}

describe('files: an agent reaches only real paths inside its granted root', () => {
  let h: ReturnType<typeof sandboxHarness>;
  let workspace: string;
  let outside: string;

  before(() => {
    h = sandboxHarness();
    workspace = join(h.dir, 'workspace');
    outside = join(h.dir, 'outside');
    mkdirSync(join(workspace, 'notes'), { recursive: true });
    mkdirSync(join(workspace, '.meta'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(workspace, 'notes/a.txt'), 'inside');
    writeFileSync(join(workspace, '.meta/context.md'), 'context');
    writeFileSync(join(outside, 'secret.txt'), SECRET);
    // Links that already exist in the workspace before the agent runs (a clone can contain them).
    symlinkSync(join(outside, 'secret.txt'), join(workspace, 'secret-link.txt'));
    symlinkSync(outside, join(workspace, 'linked-dir'));
    symlinkSync('notes/a.txt', join(workspace, 'inner-link.txt'));
    h.consent.grant(AGENT, SESSION, 'files.read', '**');
    h.consent.grant(AGENT, SESSION, 'files.write', '**');
  });
  after(() => h.cleanup());

  it('refuses reads via "..", an absolute path, a symlinked file and a pre-existing symlinked directory', async () => {
    const { agent, responses } = await h.run(
      callingGuest([
        { fn: 'files_read', req: { path: '../outside/secret.txt' } },
        { fn: 'files_read', req: { path: join(outside, 'secret.txt') } },
        { fn: 'files_read', req: { path: 'secret-link.txt' } },
        { fn: 'files_read', req: { path: 'linked-dir/secret.txt' } },
        { fn: 'files_list', req: { path: 'linked-dir' } },
        { fn: 'files_read', req: { path: 'notes/../../outside/secret.txt' } },
        { fn: 'files_read', req: { path: 'notes/a.txt' } },
        { fn: 'files_read', req: { path: 'inner-link.txt' } },
      ]),
      ['files.read'],
      workspace,
    );
    await agent.invoke(invokeInput());
    assert.deepEqual(responses.map(code), ['outside_root', 'outside_root', 'outside_root', 'outside_root', 'outside_root', 'outside_root', 'ok', 'ok']);
    for (const response of responses) assert.ok(!JSON.stringify(response).includes(Buffer.from(SECRET).toString('base64')), 'the secret never reaches the guest');
    assert.match(!responses[3].ok ? responses[3].error.message : '', /symbolic link/);
    assert.deepEqual(responses[6], { ok: true, path: 'notes/a.txt', data_b64: Buffer.from('inside').toString('base64') });
    assert.equal(responses[7].ok && responses[7].path, 'notes/a.txt', 'a link inside the workspace is read as the file it points at');
    agent.kill();
  });

  it('refuses writes outside the root: "..", absolute, through a symlinked directory, over a symlinked file, into .meta', async () => {
    const { agent, responses } = await h.run(
      callingGuest([
        { fn: 'files_write', req: { path: '../outside/escape.txt', data_b64: 'eA==' } },
        { fn: 'files_write', req: { path: join(outside, 'escape.txt'), data_b64: 'eA==' } },
        { fn: 'files_write', req: { path: 'linked-dir/escape.txt', data_b64: 'eA==' } },
        { fn: 'files_write', req: { path: 'linked-dir/new-dir/escape.txt', data_b64: 'eA==' } },
        { fn: 'files_write', req: { path: 'secret-link.txt', data_b64: 'eA==' } },
        { fn: 'files_write', req: { path: '.meta/context.md', data_b64: 'eA==' } },
        { fn: 'files_write', req: { path: 'out/new/file.txt', data_b64: Buffer.from('written').toString('base64') } },
      ]),
      ['files.write'],
      workspace,
    );
    await agent.invoke(invokeInput());
    assert.deepEqual(responses.map(code), ['outside_root', 'outside_root', 'outside_root', 'outside_root', 'outside_root', 'capability_denied', 'ok']);
    assert.equal(existsSync(join(outside, 'escape.txt')), false);
    assert.equal(existsSync(join(outside, 'new-dir')), false);
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), SECRET, 'the link target is untouched');
    assert.equal(readFileSync(join(workspace, '.meta/context.md'), 'utf8'), 'context');
    assert.equal(readFileSync(join(workspace, 'out/new/file.txt'), 'utf8'), 'written');
    assert.deepEqual(
      h.audited.map((e) => [e.type, e.payload]),
      [['agent.file_write', { path: 'out/new/file.txt', bytes: 7 }]],
      'the one write that happened is in the ledger',
    );
    agent.kill();
  });

  it('denies a declared capability used without a grant, and one granted for another folder', async () => {
    const consentless = new (await import('./fixedGrants')).FixedGrants();
    consentless.grant(AGENT, SESSION, 'files.read', 'notes/**');
    const other = sandboxHarness({ consent: consentless });
    try {
      const { agent, responses } = await other.run(
        callingGuest([
          { fn: 'files_read', req: { path: 'notes/a.txt' } },
          { fn: 'files_read', req: { path: '.meta/context.md' } },
          { fn: 'files_read', req: { path: 'inner-link.txt' } },
          { fn: 'files_write', req: { path: 'notes/b.txt', data_b64: 'eA==' } },
        ]),
        ['files.read', 'files.write'],
        workspace,
      );
      await agent.invoke(invokeInput());
      assert.deepEqual(responses.map(code), ['ok', 'capability_denied', 'capability_denied', 'capability_denied']);
      assert.equal(existsSync(join(workspace, 'notes/b.txt')), false);
      agent.kill();
    } finally {
      other.cleanup();
    }
  });
});

describe('files: large reads and writes cross the process boundary whole', () => {
  it('reads 6 MiB and writes 2 MiB', async () => {
    const h = sandboxHarness();
    try {
      const data = Buffer.alloc(6 * 1024 * 1024, 'abcdefghijklmnopqrstuvwxyz');
      writeFileSync(join(h.dir, 'big.bin'), data);
      h.consent.grant(AGENT, SESSION, 'files.read', '**');
      h.consent.grant(AGENT, SESSION, 'files.write', '**');
      const { agent, responses } = await h.run(callingGuest([{ fn: 'files_read', req: { path: 'big.bin' } }]), ['files.read'], h.dir, { memBytes: 64 * 1024 * 1024 });
      await agent.invoke(invokeInput());
      assert.equal(responses[0].ok && Buffer.from(String(responses[0].data_b64), 'base64').equals(data), true, 'the read arrives whole');
      agent.kill();
      // A 2 MiB write: its request (base64) crosses from the agent's process to the host in many pieces.
      const part = data.subarray(0, 2 * 1024 * 1024);
      const writer = await h.run(callingGuest([{ fn: 'files_write', req: { path: 'copy.bin', data_b64: part.toString('base64') } }]), ['files.write'], h.dir);
      await writer.agent.invoke(invokeInput());
      assert.equal(readFileSync(join(h.dir, 'copy.bin')).equals(part), true, 'the write lands whole');
      writer.agent.kill();
    } finally {
      h.cleanup();
    }
  });
});
