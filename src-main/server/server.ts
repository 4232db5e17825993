import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { contract, type Contract } from '../../src-preload/contract';
import { MAX_FRAME_CHARS, RpcServer } from '../../src-preload/rpc';
import { createHostServices, type HostServices } from '../node/hostServices';
import type { KeychainChoice } from '../node/vault/hostKeychain';
import { loadOrCreateToken, tokensMatch } from './authToken';
import { serveStatic } from './staticFiles';
import { WebSocketTransport } from './webSocketTransport';

export interface ServerOptions {
  home: string;
  version: string;
  /** Folder holding the renderer build (index.html, app.js, app.css). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  rotateToken?: boolean;
  /** Default: OMNI_KEYCHAIN from the environment, else the OS keychain. */
  keychain?: KeychainChoice;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly services: HostServices;
  close(): Promise<void>;
}

/** Socket messages larger than this are cut off by the WebSocket layer itself (close code 1009). */
const MAX_SOCKET_MESSAGE_BYTES = 4 * MAX_FRAME_CHARS;

function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

function rejectUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-type: text/plain\r\ncontent-length: ${text.length}\r\n\r\n${text}`);
}

/**
 * The headless host: serves the renderer over HTTP on 127.0.0.1 and the RPC contract over a WebSocket that only
 * accepts the connection token and, from browsers, only this server's own origin (no other site can drive it).
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const services = await createHostServices({ home: options.home, version: options.version, keychain: options.keychain });
  const token = loadOrCreateToken(options.home, options.rotateToken);
  const http: Server = createServer();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_SOCKET_MESSAGE_BYTES });
  const connections = new Set<RpcServer<Contract>>();
  let port = 0;

  const allowedHosts = (): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = (): string[] => allowedHosts().map((h) => `http://${h}`);
  const securityHeaders = (): Record<string, string> => ({
    'content-security-policy': contentSecurityPolicy(port),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
  });

  http.on('request', (req: IncomingMessage, res) => {
    // A Host check defeats DNS rebinding: a page on another name that resolves to 127.0.0.1 gets nothing.
    if (!allowedHosts().includes(req.headers.host ?? '')) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('wrong host');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed');
      return;
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, pid: process.pid }));
      return;
    }
    void serveStatic(options.rendererDir, path, res, securityHeaders());
  });

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/rpc') return rejectUpgrade(socket, 404, 'Not Found');
    if (!allowedHosts().includes(req.headers.host ?? '')) return rejectUpgrade(socket, 421, 'Misdirected Request');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().includes(origin)) return rejectUpgrade(socket, 403, 'Forbidden');
    if (!tokensMatch(url.searchParams.get('token'), token)) return rejectUpgrade(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const server = new RpcServer(contract, services.handlers, new WebSocketTransport(ws), 'websocket', {
        // Through the host log, which scrubs secrets: an unexpected error is where a token gets quoted by accident.
        onInternalError: (method, error) => services.log.error(`${method} failed:`, error),
      });
      connections.add(server);
      ws.on('close', () => connections.delete(server));
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/?token=${token}`;

  // `omni` commands and scripts find the running host of this home here (readable by the user only).
  const hostFile = join(options.home, 'host.json');
  writeFileSync(hostFile, JSON.stringify({ url: `http://127.0.0.1:${port}`, port, token, pid: process.pid }), { mode: 0o600 });
  chmodSync(hostFile, 0o600);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    token,
    services,
    close() {
      closing ??= (async () => {
        for (const connection of connections) connection.dispose();
        for (const client of wss.clients) client.terminate();
        wss.close();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeAllConnections();
        rmSync(hostFile, { force: true });
        await services.dispose();
      })();
      return closing;
    },
  };
}
