// The keytar keychain against the REAL OS keychain. On Linux that needs a Secret Service on a D-Bus session bus;
// without one this file re-runs itself inside a private `dbus-run-session` with a throwaway, unlocked
// gnome-keyring, and fails (never skips) when those tools are missing, so a green run always means the real
// keychain was exercised.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import * as keytar from 'keytar';
import { KEYCHAIN_SERVICE, type Keychain } from '../../src-main/node/vault/keychain';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { Secret } from '../../src-main/node/vault/secret';
import { tempDir } from '../helpers';

const INSIDE_PRIVATE_SESSION = 'OMNI_VAULT_TEST_PRIVATE_SESSION';
// A throwaway keyring created for this run only; its password protects nothing.
const THROWAWAY_KEYRING_PASSWORD = 'omni-test-keyring';

const needsPrivateSession = process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS;

function onPath(tool: string): boolean {
  return spawnSync('/bin/sh', ['-c', 'command -v "$1"', 'sh', tool], { stdio: 'ignore' }).status === 0;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A unique account per test, deleted afterwards whatever the test did. */
function testAccount(t: TestContext, keychain: Keychain): string {
  const account = `test/${process.pid}/${randomUUID()}`;
  t.after(() => keychain.delete(account));
  return account;
}

/** A value worth round-tripping: random, and not plain ASCII. */
function testValue(): string {
  return `pässwörd-🔑-${randomBytes(12).toString('base64url')}`;
}

if (needsPrivateSession) {
  test('real keychain: re-run inside a private D-Bus session with an unlocked gnome-keyring', async (t) => {
    assert.ok(!process.env[INSIDE_PRIVATE_SESSION], 'dbus-run-session did not provide DBUS_SESSION_BUS_ADDRESS');
    const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((tool) => !onPath(tool));
    assert.deepEqual(
      missing,
      [],
      `The keychain tests need a Secret Service, and there is no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset) ` +
        `to find one on, nor ${missing.join(' or ')} to start a private one. Install them with \`npm run setup:system\` ` +
        `(Debian/Ubuntu packages: dbus, gnome-keyring), or run the tests inside a desktop session.`,
    );
    // Its own HOME and XDG_DATA_HOME: the keyring file and gnome-keyring's control socket stay out of the real ones.
    const home = tempDir('vault-keyring');
    t.after(home.cleanup);
    const script = `printf '%s' "$KEYRING_PASSWORD" | gnome-keyring-daemon -r -d --unlock --components=secrets >/dev/null 2>&1
      exec "$0" --import tsx --test --test-reporter=tap "$1"`;
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home.path, XDG_DATA_HOME: `${home.path}/data`, KEYRING_PASSWORD: THROWAWAY_KEYRING_PASSWORD, [INSIDE_PRIVATE_SESSION]: '1' };
    for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR', 'NODE_TEST_CONTEXT']) delete env[name];
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn('dbus-run-session', ['--', 'sh', '-c', script, process.execPath, __filename], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk));
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(killer);
        resolve({ code, output });
      });
    });
    const passed = Number(/^# pass (\d+)/m.exec(output)?.[1] ?? 0);
    const failed = Number(/^# fail (\d+)/m.exec(output)?.[1] ?? 0);
    // Not "# pass N": the suite's runner counts the first such line it sees.
    t.diagnostic(`inside the private session: ${passed} passed, ${failed} failed`);
    assert.ok(code === 0 && failed === 0 && passed > 0, `the keychain tests failed inside the private session:\n${output}`);
  });
} else {
  test('set, get, replace and delete round-trip through the real keychain', async (t) => {
    const keychain = await openKeychain();
    assert.match(keychain.backend, /^keytar\//);
    const account = testAccount(t, keychain);
    assert.equal(await keychain.get(account), null);

    const first = testValue();
    await keychain.set(account, new Secret(first));
    const read = await keychain.get(account);
    assert.ok(read instanceof Secret);
    // Compared without assert.equal, so a failure never prints the value.
    assert.ok(read.expose() === first, 'get returned something other than what set stored');

    const second = testValue();
    await keychain.set(account, new Secret(second));
    assert.ok((await keychain.get(account))?.expose() === second, 'set did not replace the earlier value');

    assert.equal(await keychain.delete(account), true);
    assert.equal(await keychain.get(account), null);
    assert.equal(await keychain.delete(account), false);
  });

  test('a value set is readable by a second keychain instance and by another process', async (t) => {
    const keychain = await openKeychain();
    const account = testAccount(t, keychain);
    const value = testValue();
    await keychain.set(account, new Secret(value));

    const second = await openKeychain();
    assert.ok((await second.get(account))?.expose() === value, 'a second instance did not read the value');

    // The other process gets only the account and a hash, and answers with a hash comparison: the value itself
    // never travels through argv, the environment or output.
    const script = `
      const { createHash } = require('node:crypto');
      const { openKeychain } = require(${JSON.stringify(require.resolve('../../src-main/node/vault/keytarKeychain'))});
      openKeychain()
        .then((keychain) => keychain.get(process.env.OMNI_TEST_ACCOUNT))
        .then((secret) => {
          const hash = secret && createHash('sha256').update(secret.expose()).digest('hex');
          process.stdout.write(JSON.stringify({ found: secret !== null, matches: hash === process.env.OMNI_TEST_SHA256 }));
        }, (error) => process.stdout.write(JSON.stringify({ error: error.message })));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      env: { ...process.env, OMNI_TEST_ACCOUNT: account, OMNI_TEST_SHA256: sha256(value), NODE_TEST_CONTEXT: undefined },
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), { found: true, matches: true });
  });

  test('bad arguments are refused before reaching the keychain', async () => {
    const keychain = await openKeychain();
    await assert.rejects(keychain.get(''), TypeError);
    await assert.rejects(keychain.delete(''), TypeError);
    await assert.rejects(keychain.set(`test/${randomUUID()}`, new Secret('')), /empty secret/);
    await assert.rejects(keychain.set(`test/${randomUUID()}`, 'plain' as unknown as Secret<string>), /wrapped in a Secret/);
  });

  test('opening leaves no probe entry behind', async () => {
    await openKeychain();
    await openKeychain();
    // Probe accounts are unique per call (and carry the pid); listing the service is the only way to see leftovers.
    const credentials = await keytar.findCredentials(KEYCHAIN_SERVICE);
    const leftovers = credentials.filter((c) => c.account.startsWith(`.probe/${process.pid}/`)).map((c) => c.account);
    assert.deepEqual(leftovers, []);
  });
}
