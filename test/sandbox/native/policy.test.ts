import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createNativeSandbox } from '../../../src-main/node/sandbox/native/nativeSandbox';
import { NativeSandboxPolicyError, NativeSandboxUnavailableError } from '../../../src-main/node/sandbox/native/nativeSandboxErrors';
import { shPolicy } from './runSandboxed';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'omni-native-policy-')));
mkdirSync(join(workspace, 'sub'));
symlinkSync('/etc', join(workspace, 'etc-link'));
const sandbox = createNativeSandbox();

function rejectsWith(field: string, pattern: RegExp) {
  return (error: unknown) => error instanceof NativeSandboxPolicyError && error.field === field && pattern.test(error.message);
}

describe('native sandbox: bad input and a machine without bwrap', () => {
  after(() => rmSync(workspace, { recursive: true, force: true }));

  it('fails closed without bwrap: a typed error that says how to install it, and nothing runs', async () => {
    const missing = createNativeSandbox({ bwrapPath: '/nonexistent/bwrap' });
    assert.equal(missing.probeSandbox().usable, false);
    assert.match(missing.probeSandbox().items[0].sentence, /not available \(bwrap not found\)/);
    await assert.rejects(
      missing.prepareLaunch(shPolicy(workspace, 'touch ran')),
      (error: unknown) => error instanceof NativeSandboxUnavailableError && error.reason === 'bwrap_missing' && /native sandbox unavailable: bwrap not found — install bubblewrap \(apt-get install bubblewrap/.test(error.message),
    );
  });

  it('each bad field is named, with the fix', async () => {
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { argv: [] })), rejectsWith('argv', /non-empty/));
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { cwd: 'sub' })), rejectsWith('cwd', /not an absolute path/));
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { cwd: '/etc' })), rejectsWith('cwd', /outside the workspace/));
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { cwd: join(workspace, 'etc-link') })), rejectsWith('cwd', /outside the workspace/), 'a symlink out of the workspace');
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { workspace: join(workspace, 'etc-link') })), rejectsWith('workspace', /not a real path/));
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { resources: { memBytes: -1 } })), rejectsWith('resources.memBytes', /not a positive whole number/));
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { resources: { pids: 1.5 } })), rejectsWith('resources.pids', /not a positive whole number/));
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { env: { 'A=B': 'x' } })), rejectsWith('env.A=B', /not a valid environment variable/));
  });

  it('a workspace inside a secrets place is refused', async () => {
    const appHome = join(workspace, 'sub');
    const strict = createNativeSandbox({ appHome });
    await assert.rejects(strict.prepareLaunch(shPolicy(appHome, 'true')), rejectsWith('workspace', /a place secrets live/));
  });

  it('the probe says, per limit, whether this machine enforces it', () => {
    const probe = sandbox.probeSandbox();
    assert.equal(probe.usable, true, probe.problem?.message);
    const ids = probe.items.map((item) => item.id);
    assert.deepEqual(ids, ['bwrap', 'seccomp', 'network', 'staging', 'memory', 'pids', 'cpu', 'cpu_time', 'landlock']);
    for (const item of probe.items) {
      assert.match(item.sentence, item.enforced ? /enforced via|only through|none unless granted/ : /not (available|used)/, item.sentence);
    }
    const cpu = probe.items.find((item) => item.id === 'cpu')!;
    if (!cpu.enforced) assert.match(cpu.sentence, /RLIMIT_CPU backstop only/);
  });
});
