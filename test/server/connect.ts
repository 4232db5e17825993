import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { contract, type Contract } from '../../src-preload/contract';
import { RpcClient } from '../../src-preload/rpc';
import type { KeychainChoice } from '../../src-main/node/vault/hostKeychain';
import { startServer, type RunningServer } from '../../src-main/server/server';
import { WebSocketTransport } from '../../src-main/server/webSocketTransport';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';

export interface TestHost {
  server: RunningServer;
  home: string;
  cleanup(): Promise<void>;
}

/**
 * A host on a throwaway home. Without the keychain unless asked (`keychain: 'os'`): every host signs its ledger with a
 * key of its own, and test hosts would leave theirs behind in the developer's real keychain.
 */
export async function startTestHost(home?: string, port = 0, keychain: KeychainChoice = 'off'): Promise<TestHost> {
  const dir = home ? undefined : tempDir('home');
  const path = home ?? dir!.path;
  const rendererDir = join(path, 'renderer-under-test');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>test</title>');
  const server = await startServer({ home: path, version: '0.0.0-test', rendererDir, port, keychain });
  return {
    server,
    home: path,
    async cleanup() {
      await server.close();
      dir?.cleanup();
    },
  };
}

/** Opens a raw WebSocket to the host; resolves once open, rejects with the HTTP status if the upgrade is refused. */
export function openSocket(port: number, query: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc${query}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

export async function connectClient(host: RunningServer): Promise<RpcClient<Contract>> {
  const ws = await openSocket(host.port, `?token=${host.token}`);
  return new RpcClient(contract, new WebSocketTransport(ws));
}

/**
 * A test host on a throwaway home, a connected client and an empty workspace folder, all cleaned up when the test
 * ends: what most tests through the real host start with.
 */
export async function hostWithWorkspace(t: { after(fn: () => unknown): void }): Promise<{ host: TestHost; client: RpcClient<Contract>; workspace: { path: string } }> {
  const workspace = tempDir('ws');
  const host = await startTestHost();
  const client = await connectClient(host.server);
  t.after(async () => {
    client.dispose();
    await host.cleanup();
    workspace.cleanup();
  });
  return { host, client, workspace: { path: workspace.path } };
}

/** `omni serve` (the real CLI, run from source) as a process of its own, on `home`. */
export interface HostProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Set once it printed its ready line. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM (a clean stop, the lock released) or SIGKILL (a crash); resolves once the process is gone and reaped. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `omni serve --home <home>` in a new process (no keychain) and resolves once it is ready; rejects with its
 * output if it exits first (see `runHostProcess` for a start that is expected to fail). In its own process group, so
 * the test can end whatever a killed host leaves behind.
 */
export async function startHostProcess(home: string, timeoutMs = 60_000): Promise<HostProcess> {
  const child = spawn(process.execPath, [omniCli(), 'serve', '--home', home, '--port', '0'], {
    env: { ...process.env, OMNI_TEST: '1', OMNI_KEYCHAIN: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`omni serve did not print its ready line within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const check = (): void => {
      const match = /Omniscient Shell ready at (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]);
    };
    child.stdout!.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`omni serve exited (code ${code}, signal ${signal}) before it was ready:\n${output}`));
    });
  });
  const parsed = new URL(url);
  return {
    child,
    pid: child.pid!,
    url,
    port: Number(parsed.port),
    token: parsed.searchParams.get('token') ?? '',
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const result = await exited;
      // Whatever a killed host started (a warm sandbox process) goes with it.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is empty.
      }
      return result;
    },
  };
}

/** Runs `omni serve --home <home>` expecting it to stop by itself (it does not print a ready line); kills it after `timeoutMs`. */
export function runHostProcess(home: string, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string; pid: number }> {
  const child = spawn(process.execPath, [omniCli(), 'serve', '--home', home, '--port', '0'], {
    env: { ...process.env, OMNI_TEST: '1', OMNI_KEYCHAIN: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, pid: child.pid! });
    }),
  );
}
