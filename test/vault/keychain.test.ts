// The keytar keychain against the REAL OS keychain. On Linux that needs a Secret Service on a D-Bus session bus;
// without one this file re-runs itself inside a private `dbus-run-session` with a throwaway, unlocked
// gnome-keyring, and fails (never skips) when those tools are missing, so a green run always means the real
// keychain was exercised.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { KEYCHAIN_SERVICE, type Keychain } from '../../src-main/node/vault/keychain';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { Secret } from '../../src-main/node/vault/secret';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';

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

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 20_000);
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
      const { openKeychain } = require(${JSON.stringify(join(__dirname, '../../src-main/node/vault/keytarKeychain.ts'))});
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

  /**
   * The service's accounts that start with `prefix`. keytar lists accounts only together with their secrets, and
   * other test files use the same keychain at the same time when the suite runs in one keyring: an entry another file
   * deletes between the listing and the read of its secret gives libsecret no value, which keytar answers with "No
   * such secret item" or, seen in CI, a crash (SIGSEGV). So the listing runs in a child process that prints the
   * matching names only (never a secret), and a listing that lost that race is tried again.
   */
  function accountsStartingWith(prefix: string): string[] {
    const script = `require(${JSON.stringify(require.resolve('keytar'))}).findCredentials(${JSON.stringify(KEYCHAIN_SERVICE)}).then(
      (all) => process.stdout.write(JSON.stringify(all.map((c) => c.account).filter((a) => a.startsWith(${JSON.stringify(prefix)})))),
      (error) => { process.stderr.write(String(error)); process.exitCode = 3; })`;
    for (let attempt = 1; ; attempt++) {
      const listed = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      if (listed.status === 0) return JSON.parse(listed.stdout) as string[];
      const lostTheRace = listed.signal !== null || /No such secret item/.test(listed.stderr);
      if (attempt >= 5 || !lostTheRace) throw new Error(`listing the keychain failed (${listed.signal ?? `exit ${listed.status}`}): ${listed.stderr.trim()}`);
    }
  }

  test('opening leaves no probe entry behind', async () => {
    await openKeychain();
    await openKeychain();
    // Probe accounts are unique per call (and carry the pid); listing the service is the only way to see leftovers.
    assert.deepEqual(accountsStartingWith(`.probe/${process.pid}/`), []);
  });
}
