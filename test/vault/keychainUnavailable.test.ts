// Without a usable keychain, openKeychain() must fail fast with KeychainUnavailableError and store nothing
// anywhere else. Each case runs openKeychain() in a child process with its own empty HOME and a broken (or missing)
// keychain, since a keychain problem is a property of the process environment.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { KeychainUnavailableError } from '../../src-main/node/vault/keychain';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { tempDir } from '../helpers';

const linuxOnly = process.platform === 'linux' ? false : 'the Secret Service (D-Bus) backend exists only on Linux';

interface ProbeResult {
  opened: boolean;
  unavailable?: boolean;
  failure?: string;
  message?: string;
  ms: number;
}

/** Runs openKeychain() in a fresh Node process with exactly `env` (plus PATH) and reports how it ended. */
function openKeychainInChild(env: Record<string, string>, probeTimeoutMs?: number): Promise<ProbeResult> {
  const script = `
    const { openKeychain } = require(${JSON.stringify(join(__dirname, '../../src-main/node/vault/keytarKeychain.ts'))});
    const { KeychainUnavailableError } = require(${JSON.stringify(join(__dirname, '../../src-main/node/vault/keychain.ts'))});
    const started = Date.now();
    // A keytar call that timed out still blocks a libuv worker thread, and Node's exit joins those threads, so
    // process.exit() would hang: report (stdout to a pipe is synchronous on Linux), then end the hard way.
    const report = (result) => { process.stdout.write(JSON.stringify({ ...result, ms: Date.now() - started })); process.kill(process.pid, 'SIGKILL'); };
    openKeychain({ probeTimeoutMs: ${probeTimeoutMs ?? 'undefined'} }).then(
      () => report({ opened: true }),
      (error) => report({ opened: false, unavailable: error instanceof KeychainUnavailableError, failure: error.failure, message: error.message }),
    );`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      if (!out) return reject(new Error(`child ended (${code ?? signal}) without a result: ${err}`));
      resolve(JSON.parse(out) as ProbeResult);
    });
  });
}

/** Every file and folder under `dir`, relative to it. */
function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((entry) => relative(dir, join(dir, entry)));
}

test('no session bus: rejects with KeychainUnavailableError at once and writes nothing to disk', { skip: linuxOnly }, async (t) => {
  const home = tempDir('vault-home');
  t.after(home.cleanup);
  // An explicit address that does not exist, so libsecret cannot autolaunch a bus (or anything else) either.
  const result = await openKeychainInChild({ HOME: home.path, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
  assert.equal(result.opened, false);
  assert.equal(result.unavailable, true);
  assert.equal(result.failure, 'no-bus');
  assert.match(result.message!, /OS keychain unavailable \(keytar\/secret-service\): no D-Bus session bus/);
  assert.match(result.message!, /gnome-keyring \(or KWallet\)/);
  assert.ok(result.ms < 3_000, `took ${result.ms} ms, beyond the 3 s bound`);
  assert.deepEqual(listTree(home.path), []);
});

test('a session bus that never answers: rejects with a timeout within the bound and writes nothing', { skip: linuxOnly }, async (t) => {
  const home = tempDir('vault-home');
  const sockets = tempDir('vault-bus');
  t.after(home.cleanup);
  t.after(sockets.cleanup);
  // Accepts the connection and then stays silent: the way a wedged bus or Secret Service makes keytar hang.
  const held: Socket[] = [];
  const bus = createServer((socket) => held.push(socket));
  const path = join(sockets.path, 'bus');
  await new Promise<void>((resolve) => bus.listen(path, resolve));
  t.after(() => {
    for (const socket of held) socket.destroy();
    bus.close();
  });
  const bound = 500;
  const result = await openKeychainInChild({ HOME: home.path, DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` }, bound);
  assert.equal(result.opened, false);
  assert.equal(result.unavailable, true);
  assert.equal(result.failure, 'timeout');
  assert.match(result.message!, /did not answer within 500 ms/);
  assert.ok(result.ms >= bound && result.ms < bound + 1_500, `took ${result.ms} ms for a ${bound} ms bound`);
  assert.deepEqual(listTree(home.path), []);
});

const hasKeyringTools = ['dbus-run-session', 'gnome-keyring-daemon'].every((tool) => spawnSync('/bin/sh', ['-c', 'command -v "$1"', 'sh', tool]).status === 0);

test(
  'a locked keyring: rejects with failure "locked" and says how to unlock',
  { skip: linuxOnly || (!hasKeyringTools && 'needs dbus-run-session and gnome-keyring-daemon (npm run setup:system)') },
  async (t) => {
    const home = tempDir('vault-home');
    t.after(home.cleanup);
    // A private bus whose gnome-keyring was started WITHOUT --unlock; no DISPLAY, so no unlock dialog can appear.
    const script = `
      gnome-keyring-daemon -r -d --components=secrets >/dev/null 2>&1
      exec "$0" --import tsx -e "$1"`;
    const probe = `
      const { openKeychain } = require(${JSON.stringify(join(__dirname, '../../src-main/node/vault/keytarKeychain.ts'))});
      openKeychain().then(
        () => { process.stdout.write(JSON.stringify({ opened: true })); process.exit(0); },
        (error) => { process.stdout.write(JSON.stringify({ opened: false, failure: error.failure, message: error.message })); process.exit(0); });`;
    const child = spawnSync('dbus-run-session', ['--', 'sh', '-c', script, process.execPath, probe], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.path, XDG_DATA_HOME: join(home.path, 'data') },
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(child.status, 0, child.stderr);
    const result = JSON.parse(child.stdout) as ProbeResult;
    assert.equal(result.opened, false);
    assert.equal(result.failure, 'locked');
    assert.match(result.message!, /keyring is locked.*Unlock it/);
  },
);

test('keytar missing from the native modules folder: rejects with failure "module" and names the fix', async (t) => {
  const empty = tempDir('vault-native');
  t.after(empty.cleanup);
  const saved = process.env.OMNI_NATIVE_MODULES_DIR;
  process.env.OMNI_NATIVE_MODULES_DIR = empty.path;
  t.after(() => {
    if (saved === undefined) delete process.env.OMNI_NATIVE_MODULES_DIR;
    else process.env.OMNI_NATIVE_MODULES_DIR = saved;
  });
  await assert.rejects(openKeychain(), (error: unknown) => {
    assert.ok(error instanceof KeychainUnavailableError);
    assert.equal(error.failure, 'module');
    assert.match(error.message, /the native module keytar did not load/);
    assert.match(error.message, /npm rebuild keytar/);
    return true;
  });
});
