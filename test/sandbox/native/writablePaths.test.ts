// LaunchPolicy.writablePaths: a folder besides the workspace the command may write (an ACP agent's config folder
// under the app home), bound at its path; anything that would show or sit in a secret place of the user is refused.
// Run with HOME set to a temp dir (the test makes ~/.ssh and an app home there).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createNativeSandbox, NativeSandboxPolicyError } from '../../../src-main/node/sandbox/native/nativeSandbox';
import { runSandboxed, shPolicy } from './runSandboxed';

const home = homedir();

describe('native sandbox: writablePaths', { skip: realpathSync(home).startsWith(realpathSync(tmpdir())) ? false : `HOME (${home}) is not a temp dir: run with HOME=$(mktemp -d)` }, () => {
  const appHome = join(home, '.omniscient-shell');
  const configHome = join(appHome, 'acp', 'agent-a');
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'omni-native-writable-')));
  mkdirSync(configHome, { recursive: true });
  mkdirSync(join(home, '.ssh', 'inner'), { recursive: true });
  writeFileSync(join(appHome, 'secret.txt'), 'APP-HOME-CANARY');
  const sandbox = createNativeSandbox({ appHome });
  after(() => {
    sandbox.dispose();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('a folder inside the app home is writable at its path; the rest of the app home stays hidden', async () => {
    const script = `echo hi > "${configHome}/state.txt"; echo "write=$?"; cat "${appHome}/secret.txt"; echo "read=$?"`;
    const result = await runSandboxed(sandbox, shPolicy(workspace, script, { writablePaths: [configHome] }));
    assert.match(result.output, /write=0/);
    assert.match(result.output, /read=1/);
    assert.ok(!result.output.includes('APP-HOME-CANARY'));
    assert.equal(readFileSync(join(configHome, 'state.txt'), 'utf8'), 'hi\n');
  });

  it('refuses a path in or over a secret place of the user, inside the workspace, relative or missing', async () => {
    const refused: [string, RegExp][] = [
      [join(home, '.ssh', 'inner'), /inside .*\.ssh, a place secrets live/],
      [home, /would show .*, a place secrets live/],
      [appHome, /would show .*, a place secrets live/],
      [join(workspace, 'sub'), /inside the workspace/],
      ['relative/path', /not an absolute path/],
      [join(appHome, 'missing'), /does not exist/],
    ];
    mkdirSync(join(workspace, 'sub'), { recursive: true });
    for (const [path, message] of refused) {
      await assert.rejects(
        sandbox.prepareLaunch(shPolicy(workspace, 'true', { writablePaths: [path] })),
        (error: unknown) => error instanceof NativeSandboxPolicyError && /writablePaths/.test(error.message) && message.test(error.message),
        path,
      );
    }
  });
});
