import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { contract, type Contract } from '../../src-preload/contract';
import { RpcClient } from '../../src-preload/rpc';
import type { KeychainChoice } from '../../src-main/node/vault/hostKeychain';
import { startServer, type RunningServer } from '../../src-main/server/server';
import { WebSocketTransport } from '../../src-main/server/webSocketTransport';
import { tempDir } from '../helpers';

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
