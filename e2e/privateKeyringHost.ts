import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { waitForReadyLine, type HostProcess } from './hostProcess';

const root = join(__dirname, '..');
// A throwaway keyring created for this host only; its password protects nothing.
const THROWAWAY_KEYRING_PASSWORD = 'omni-e2e-keyring';

/**
 * Runs `node <nodeArgs…>` (a host that prints the ready line) with a REAL OS keychain: inside its own
 * `dbus-run-session`, with a throwaway, unlocked gnome-keyring whose files live under `userHome` (the
 * test/privateKeyring.ts pattern, for a host process); a second start with the same `userHome` finds the same keyring.
 * `env` adds variables. The session is its own process group, so stopPrivateKeyringHost ends the host, the bus and
 * the keyring daemon together.
 */
export function startInPrivateKeyring(nodeArgs: string[], home: string, userHome: string, env: Record<string, string>, timeoutMs: number): Promise<HostProcess> {
  mkdirSync(join(userHome, 'data'), { recursive: true });
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, HOME: userHome, XDG_DATA_HOME: join(userHome, 'data'), OMNI_HOME: home, KEYRING_PASSWORD: THROWAWAY_KEYRING_PASSWORD };
  for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR', 'OMNI_KEYCHAIN']) delete childEnv[name];
  const script = `printf '%s' "$KEYRING_PASSWORD" | gnome-keyring-daemon -r -d --unlock --components=secrets >/dev/null 2>&1
    unset KEYRING_PASSWORD
    exec "$0" "$@"`;
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script, process.execPath, ...nodeArgs], {
    cwd: root,
    env: childEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return waitForReadyLine(child, timeoutMs, () => process.kill(-child.pid!, 'SIGKILL'));
}

/** Starts `omni serve` with a REAL OS keychain (startInPrivateKeyring). */
export function startHostInPrivateKeyring(port: number, home: string, userHome: string, timeoutMs = 30_000): Promise<HostProcess> {
  return startInPrivateKeyring([join(root, 'bin/omni.mjs'), 'serve', '--port', String(port), '--home', home], home, userHome, {}, timeoutMs);
}

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a host started above: SIGTERM to its whole session (host, bus, keyring daemon), SIGKILL after 5 s. Resolves
 * only when every process of the group is gone: dbus-run-session exits at once on SIGTERM while the host is still
 * shutting down (flushing the ledger, signing its checkpoint), and a host started on the same home meanwhile would
 * race it for the ledger's next seq.
 */
export async function stopPrivateKeyringHost(host: HostProcess): Promise<void> {
  const { child } = host;
  const pgid = child.pid!;
  if (!groupAlive(pgid)) return;
  const killAll = (): void => {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const fallback = setTimeout(killAll, 5_000);
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    // already gone
  }
  for (let waited = 0; groupAlive(pgid); waited += 25) {
    if (waited > 10_000) killAll();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  clearTimeout(fallback);
}
