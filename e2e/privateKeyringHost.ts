import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HostProcess } from './hostProcess';

const root = join(__dirname, '..');
const READY = /Omniscient Shell ready at (http:\/\/\S+)/;
// A throwaway keyring created for this host only; its password protects nothing.
const THROWAWAY_KEYRING_PASSWORD = 'omni-e2e-keyring';

/**
 * Starts `omni serve` with a REAL OS keychain: inside its own `dbus-run-session`, with a throwaway, unlocked
 * gnome-keyring whose files live under `userHome` (the test/privateKeyring.ts pattern, for a host process). The
 * session is its own process group, so stopping it ends the host, the bus and the keyring daemon together.
 */
export function startHostInPrivateKeyring(port: number, home: string, userHome: string, timeoutMs = 30_000): Promise<HostProcess> {
  mkdirSync(join(userHome, 'data'), { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: userHome, XDG_DATA_HOME: join(userHome, 'data'), OMNI_HOME: home, KEYRING_PASSWORD: THROWAWAY_KEYRING_PASSWORD };
  for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR', 'OMNI_KEYCHAIN']) delete env[name];
  const script = `printf '%s' "$KEYRING_PASSWORD" | gnome-keyring-daemon -r -d --unlock --components=secrets >/dev/null 2>&1
    unset KEYRING_PASSWORD
    exec "$0" "$1" serve --port "$2" --home "$3"`;
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script, process.execPath, join(root, 'bin/omni.mjs'), String(port), home], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`host did not print its ready line within ${timeoutMs} ms:\n${log}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = READY.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], child, output: () => log });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`host exited early (code ${code}, signal ${signal}):\n${log}`));
    });
  });
}

/** Stops a host started above: SIGTERM to its whole session (host, bus, keyring daemon), SIGKILL after 5 s. */
export function stopPrivateKeyringHost(host: HostProcess): Promise<void> {
  const { child } = host;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const fallback = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(fallback);
      resolve();
    });
    process.kill(-child.pid!, 'SIGTERM');
  });
}
