import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(__dirname, '..');
const READY = /Omniscient Shell ready at (http:\/\/\S+)/;

/** A port nobody listens on right now (the OS picks it; the host binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface HostProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the host printed, for failure messages. */
  output(): string;
}

/** Starts `omni serve` and resolves with the address it prints once it is ready. */
export function startHost(port: number, home: string, env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<HostProcess> {
  const child = spawn(process.execPath, [join(root, 'bin/omni.mjs'), 'serve', '--port', String(port), '--home', home], {
    cwd: root,
    env: { ...env, OMNI_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return waitForReadyLine(child, timeoutMs, () => child.kill('SIGKILL'));
}

/**
 * Resolves with the address a starting host prints once it is ready (keeping all it prints, for failure messages);
 * rejects when it exits first, or after `timeoutMs`, when `kill` ends it.
 */
export function waitForReadyLine(child: ChildProcess, timeoutMs: number, kill: () => void): Promise<HostProcess> {
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
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

/** Stops the host: SIGKILL when `hard` (a crash), else SIGTERM with a SIGKILL fallback. Resolves once it is gone. */
export function stopHost(host: HostProcess, hard: boolean): Promise<void> {
  const { child } = host;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const fallback = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(fallback);
      resolve();
    });
    child.kill(hard ? 'SIGKILL' : 'SIGTERM');
  });
}
