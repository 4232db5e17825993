import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostServices } from '../node/hostServices';
import { loadOrCreateToken } from './authToken';
import { writeHostFile } from './hostFile';
import { createRpcEndpoint } from './rpcEndpoint';

export interface LocalControl {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * For a host that serves its windows some other way (Electron's MessagePorts): the same contract on a WebSocket at
 * 127.0.0.1, for the `omni` CLI and the user's scripts (`omni shell`), announced in <home>/host.json. It serves no
 * pages and accepts no browser origin at all: only a client holding the home's token.
 */
export async function startLocalControl(home: string, services: HostServices): Promise<LocalControl> {
  const token = loadOrCreateToken(home);
  const http = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('this port only takes the omni CLI'));
  let port = 0;
  const rpc = createRpcEndpoint(services, token, () => ({ hosts: [`127.0.0.1:${port}`, `localhost:${port}`], origins: [] }));
  http.on('upgrade', (req, socket, head: Buffer) => rpc.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  const removeHostFile = writeHostFile(home, port, token, 'desktop app');
  return {
    port,
    async close() {
      rpc.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      removeHostFile();
    },
  };
}
