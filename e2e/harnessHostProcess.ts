import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HostProcess } from './hostProcess';

const root = join(__dirname, '..');
const READY = /Omniscient Shell ready at (http:\/\/\S+)/;
// A throwaway keyring created for this host only; its password protects nothing.
const THROWAWAY_KEYRING_PASSWORD = 'omni-e2e-keyring';

/**
 * The harness e2e host (harnessHostMain.ts) inside its own `dbus-run-session` with a throwaway, unlocked
 * gnome-keyring whose files live under `userHome` (as privateKeyringHost.ts does for `omni serve`): a second start
 * with the same `userHome` finds the same keyring, so a restart keeps the connection. `env` adds variables (the CLI
 * paths). Stop it with stopPrivateKeyringHost.
 */
export function startHarnessHost(port: number, home: string, userHome: string, anthropicOrigin: string, env: Record<string, string>, timeoutMs = 30_000): Promise<HostProcess> {
  mkdirSync(join(userHome, 'data'), { recursive: true });
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, HOME: userHome, XDG_DATA_HOME: join(userHome, 'data'), OMNI_HOME: home, KEYRING_PASSWORD: THROWAWAY_KEYRING_PASSWORD };
  for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR', 'OMNI_KEYCHAIN']) delete childEnv[name];
  const script = `printf '%s' "$KEYRING_PASSWORD" | gnome-keyring-daemon -r -d --unlock --components=secrets >/dev/null 2>&1
    unset KEYRING_PASSWORD
    exec "$0" --import tsx "$1" "$2" "$3" "$4"`;
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script, process.execPath, join(root, 'e2e/harnessHostMain.ts'), String(port), home, anthropicOrigin], {
    cwd: root,
    env: childEnv,
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
