// Tests that need the REAL OS keychain. On Linux that is a Secret Service on a D-Bus session bus; when the tests run
// without one, a file re-runs itself inside a private `dbus-run-session` with a throwaway, unlocked gnome-keyring,
// and fails (never skips) when those tools are missing, so a green run always means the real keychain was exercised.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './helpers';

const INSIDE_PRIVATE_SESSION = 'OMNI_TEST_PRIVATE_KEYRING_SESSION';
// A throwaway keyring created for this run only; its password protects nothing.
const THROWAWAY_KEYRING_PASSWORD = 'omni-test-keyring';

/** True when this process must re-run its tests in a private keyring session instead of running them itself. */
export const needsPrivateKeyring = process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS;

function onPath(tool: string): boolean {
  return spawnSync('/bin/sh', ['-c', 'command -v "$1"', 'sh', tool], { stdio: 'ignore' }).status === 0;
}

/** Registers the one test that re-runs `file` (the calling test file) inside a private keyring session. */
export function rerunInPrivateKeyring(file: string, timeoutMs = 60_000): void {
  test(`real keychain: ${basename(file)} re-run inside a private D-Bus session with an unlocked gnome-keyring`, async (t) => {
    assert.ok(!process.env[INSIDE_PRIVATE_SESSION], 'dbus-run-session did not provide DBUS_SESSION_BUS_ADDRESS');
    const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((tool) => !onPath(tool));
    assert.deepEqual(
      missing,
      [],
      `These tests need a Secret Service, and there is no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset) ` +
        `to find one on, nor ${missing.join(' or ')} to start a private one. Install them with \`npm run setup:system\` ` +
        `(Debian/Ubuntu packages: dbus, gnome-keyring), or run the tests inside a desktop session.`,
    );
    // Its own HOME and XDG_DATA_HOME: the keyring file and gnome-keyring's control socket stay out of the real ones.
    const home = tempDir('keyring');
    t.after(home.cleanup);
    // The file as this process runs it: its bundle (scripts/testBundles.mjs) when the suite runs bundles, else the
    // TypeScript source through tsx.
    const bundle = process.argv[1]?.endsWith('.cjs') ? process.argv[1] : undefined;
    const loader = bundle ? '--enable-source-maps' : '--import=tsx';
    const script = `printf '%s' "$KEYRING_PASSWORD" | gnome-keyring-daemon -r -d --unlock --components=secrets >/dev/null 2>&1
      exec "$0" "$2" --test --test-reporter=tap "$1"`;
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home.path, XDG_DATA_HOME: `${home.path}/data`, KEYRING_PASSWORD: THROWAWAY_KEYRING_PASSWORD, [INSIDE_PRIVATE_SESSION]: '1' };
    for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR', 'NODE_TEST_CONTEXT']) delete env[name];
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      // Its own process group: dbus-run-session hands its stdout and stderr to the dbus-daemon it starts, and a
      // daemon left alive after the session ended (seen under load) kept those pipes open, so 'close' never came and
      // the test file never ended. The group is killed once the session's shell has exited.
      const child = spawn('dbus-run-session', ['--', 'sh', '-c', script, process.execPath, bundle ?? file, loader], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const killGroup = () => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk));
      const killer = setTimeout(killGroup, timeoutMs);
      child.on('error', reject);
      child.on('exit', killGroup);
      child.on('close', (code) => {
        clearTimeout(killer);
        resolve({ code, output });
      });
    });
    const passed = Number(/^# pass (\d+)/m.exec(output)?.[1] ?? 0);
    const failed = Number(/^# fail (\d+)/m.exec(output)?.[1] ?? 0);
    // Not "# pass N": the suite's runner counts the first such line it sees.
    t.diagnostic(`inside the private session: ${passed} passed, ${failed} failed`);
    assert.ok(code === 0 && failed === 0 && passed > 0, `the tests failed inside the private keyring session:\n${output}`);
  });
}
