// Without a usable keychain, connecting fails with VaultUnavailableError saying what to do, credential features say
// they are off, nothing is asked of the provider, and the key appears nowhere on disk. Three ways: the keychain
// turned off (OMNI_KEYCHAIN=off), absent (no D-Bus session bus), and locked (gnome-keyring never unlocked).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Secret } from '../../src-main/node/vault/secret';
import { VaultUnavailableError } from '../../src-main/node/vault/vaultErrors';
import { tempDir } from '../helpers';
import { startOidcTestServer, CLIENT_ID, type OidcTestServer } from './oidcTestServer';
import { vaultFixture } from './vaultFixture';

const CHILD = join(__dirname, 'fixtures', 'connectWithoutKeychain.ts');
const hasKeyringTools = ['dbus-run-session', 'gnome-keyring-daemon'].every((tool) => spawnSync('/bin/sh', ['-c', 'command -v "$1"', 'sh', tool]).status === 0);

/** Every file under `dir` whose bytes contain `needle` (the database and its -wal and -shm files included). */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, entry);
    if (statSync(path).isFile() && readFileSync(path).includes(needle)) found.push(entry);
  }
  return found;
}

const newKey = () => `sk-proj-${randomBytes(30).toString('base64url')}`;

interface ChildResult {
  status: { available: boolean; problem: string | null };
  apiKey: { name: string; message: string };
  device: { name: string; message: string };
  failures: string[];
  connections: number;
  crashed?: string;
}

describe('connecting without a usable keychain', () => {
  let server: OidcTestServer;
  before(async () => {
    server = await startOidcTestServer();
  });
  after(() => server.close());

  it('keychain turned off: an explicit error, features reported off, nothing asked of the provider, nothing on disk', async (t) => {
    const fixture = await vaultFixture({ keychain: { keychain: null, problem: 'the keychain is turned off (OMNI_KEYCHAIN=off)' } });
    t.after(() => fixture.close());
    fixture.providers.addOidc({ id: 'testidp', name: 'Test IdP', issuer: server.issuer, clientId: CLIENT_ID, apiDomains: ['127.0.0.1'] });
    assert.deepEqual(fixture.connections.status(), { available: false, problem: 'the keychain is turned off (OMNI_KEYCHAIN=off)' });

    const key = newKey();
    await assert.rejects(fixture.connections.addApiKey({ provider: 'openai', apiKey: new Secret(key) }), (error: unknown) => {
      assert.ok(error instanceof VaultUnavailableError);
      assert.match(error.message, /^Credentials are disabled: the keychain is turned off \(OMNI_KEYCHAIN=off\)\. Nothing was stored.*Fix the keychain/);
      return true;
    });
    const before = server.deviceAuthorizations;
    await assert.rejects(fixture.connections.startDeviceFlow({ provider: 'testidp', scopes: ['repo'] }), VaultUnavailableError);
    assert.equal(server.deviceAuthorizations, before, 'no device code was asked for');
    await assert.rejects(fixture.connections.startPkce({ provider: 'testidp', scopes: ['repo'] }), VaultUnavailableError);

    assert.deepEqual(fixture.connections.list(), []);
    assert.deepEqual(fixture.entries('credential.fail').map((e) => e.payload.reason), ['vault_unavailable', 'vault_unavailable', 'vault_unavailable']);
    fixture.ledger.flush();
    assert.deepEqual(filesContaining(fixture.home, key), []);
  });

  function runChild(env: Record<string, string>, wrap?: (argv: string[]) => string[]): { result: ChildResult; key: string; home: string; cleanup: () => void } {
    const home = tempDir('nokeychain');
    const key = newKey();
    const argv = [process.execPath, '--import', 'tsx', CHILD];
    const [command, ...args] = wrap ? wrap(argv) : argv;
    const child = spawnSync(command, args, {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.path, XDG_DATA_HOME: join(home.path, 'data'), OMNI_HOME: join(home.path, 'omni'), OMNI_TEST_KEY: key, OMNI_TEST_ISSUER: server.issuer, ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    assert.ok(line.startsWith('{'), `the child printed no result (status ${child.status}): ${child.stderr}`);
    const result = JSON.parse(line) as ChildResult;
    assert.equal(result.crashed, undefined, result.crashed);
    return { result, key, home: home.path, cleanup: home.cleanup };
  }

  function assertRefused(run: ReturnType<typeof runChild>, problem: RegExp): void {
    const { result } = run;
    assert.equal(result.status.available, false);
    assert.match(result.status.problem ?? '', problem);
    assert.equal(result.apiKey.name, 'VaultUnavailableError');
    assert.match(result.apiKey.message, /^Credentials are disabled: .*Nothing was stored, and nothing is ever stored outside the OS keychain/);
    assert.match(result.apiKey.message, problem);
    assert.equal(result.device.name, 'VaultUnavailableError');
    assert.equal(result.connections, 0);
    assert.deepEqual(result.failures, ['vault_unavailable', 'vault_unavailable']);
    assert.deepEqual(filesContaining(run.home, run.key), [], 'the key is nowhere under the home folder (database, -wal, -shm, keyring files)');
  }

  it('keychain absent (no D-Bus session bus): the same explicit error, nothing on disk', { skip: process.platform !== 'linux' && 'the Secret Service exists only on Linux' }, (t) => {
    const before = server.deviceAuthorizations;
    const run = runChild({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    t.after(run.cleanup);
    assertRefused(run, /no D-Bus session bus/);
    assert.equal(server.deviceAuthorizations, before);
  });

  it(
    'keychain locked (gnome-keyring never unlocked): says it is locked and how to unlock, nothing on disk',
    { skip: (process.platform !== 'linux' && 'Linux only') || (!hasKeyringTools && 'needs dbus-run-session and gnome-keyring-daemon (npm run setup:system)') },
    (t) => {
      const run = runChild({}, (argv) => ['dbus-run-session', '--', 'sh', '-c', 'gnome-keyring-daemon -r -d --components=secrets >/dev/null 2>&1; exec "$@"', 'sh', ...argv]);
      t.after(run.cleanup);
      assertRefused(run, /keyring is locked.*Unlock it/);
    },
  );
});
