import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AcpProcessLauncher } from '../node/acp/acpProcess';
import { createHostServices, type HostServices } from '../node/hostServices';
import type { KeychainChoice } from '../node/vault/hostKeychain';
import type { ProviderRegistry } from '../node/vault/providers';
import { loadOrCreateToken } from './authToken';
import { writeHostFile } from './hostFile';
import { createRpcEndpoint } from './rpcEndpoint';
import { serveStatic } from './staticFiles';

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
  /** Credential providers for the host (tests point one at a local stand-in); default: the built-in ones. */
  providers?: ProviderRegistry;
  /** How ACP agents are started; default: in the native sandbox. Tests plug in the plain launcher for a fake agent. */
  acpLauncher?: AcpProcessLauncher;
  /** How long a consent prompt on screen waits for an answer; default: OMNI_CONSENT_TIMEOUT, else 30 minutes. */
  consentPromptTimeoutMs?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly services: HostServices;
  close(): Promise<void>;
}

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

/**
 * The headless host: serves the renderer over HTTP on 127.0.0.1 and the RPC contract over a WebSocket that only
 * accepts the connection token and, from browsers, only this server's own origin (no other site can drive it).
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const services = await createHostServices({
    home: options.home,
    version: options.version,
    keychain: options.keychain,
    ...(options.providers ? { providers: options.providers } : {}),
    ...(options.acpLauncher ? { acpLauncher: options.acpLauncher } : {}),
    ...(options.consentPromptTimeoutMs !== undefined ? { consentPromptTimeoutMs: options.consentPromptTimeoutMs } : {}),
  });
  const token = loadOrCreateToken(options.home, options.rotateToken);
  const http: Server = createServer();
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

  const rpc = createRpcEndpoint(services, token, () => ({ hosts: allowedHosts(), origins: allowedOrigins() }));
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => rpc.handleUpgrade(req, socket, head));

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/?token=${token}`;

  const removeHostFile = writeHostFile(options.home, port, token, 'omni serve');

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    token,
    services,
    close() {
      closing ??= (async () => {
        rpc.close();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeAllConnections();
        removeHostFile();
        await services.dispose();
      })();
      return closing;
    },
  };
}
