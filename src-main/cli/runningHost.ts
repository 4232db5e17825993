import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { contract, type Contract } from '../../src-preload/contract';
import { RpcClient } from '../../src-preload/rpc';
import { WebSocketTransport } from '../server/webSocketTransport';
import { isAlive } from '../node/base/processTable';

/** Why a command that needs the running host of a home cannot reach it. Printed as is; exit code 3. */
export class NoRunningHostError extends Error {}

interface HostFile {
  port: number;
  token: string;
  pid: number;
}


/**
 * Reads `<home>/host.json`, which a running host writes (mode 0600) with its port and connection token, and checks
 * that the host behind it is still alive: a file left by a crashed host is reported as such, not as a refused socket.
 */
export function readHostFile(home: string): HostFile {
  const file = join(home, 'host.json');
  const start = `no Omniscient Shell host is running for the home ${home}`;
  if (!existsSync(file)) throw new NoRunningHostError(`${start}: start one with \`omni serve --home ${home}\` (or \`npm start\`), or pass the right --home`);
  if ((statSync(file).mode & 0o077) !== 0) throw new NoRunningHostError(`${file} is readable by other users; refusing to use its token (the host recreates it 0600 when it starts)`);
  let parsed: Partial<HostFile>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<HostFile>;
  } catch {
    throw new NoRunningHostError(`${file} is not valid JSON; restart the host to rewrite it`);
  }
  if (typeof parsed.port !== 'number' || typeof parsed.token !== 'string' || typeof parsed.pid !== 'number') {
    throw new NoRunningHostError(`${file} lacks port, token or pid; restart the host to rewrite it`);
  }
  if (!isAlive(parsed.pid)) throw new NoRunningHostError(`${start}: the host that wrote ${file} (pid ${parsed.pid}) has exited; start it again`);
  return parsed as HostFile;
}

/** Connects to the running host of `home` over its WebSocket, as the UI does. */
export async function connectToRunningHost(home: string): Promise<{ client: RpcClient<Contract>; close(): void }> {
  const host = readHostFile(home);
  const socket = await new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/rpc?token=${encodeURIComponent(host.token)}`);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) =>
      reject(new NoRunningHostError(`the host on port ${host.port} refused the connection (HTTP ${res.statusCode}); restart it so host.json is current`)),
    );
    ws.once('error', (error) => reject(new NoRunningHostError(`cannot reach the host on port ${host.port}: ${error.message}`)));
  });
  const transport = new WebSocketTransport(socket);
  const client = new RpcClient(contract, transport);
  return { client, close: () => transport.close('done') };
}
