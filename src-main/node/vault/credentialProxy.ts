import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Disposable } from '../../../src-preload/rpc';
import type { LedgerAppend } from '../ledger/ledger';
import type { UsableCredential } from './connections';
import type { CredentialHandles, ResolvedHandle } from './credentialHandles';
import { credentialHeader, HANDLE_HEADER } from './handleInjection';
import type { ProviderRegistry } from './providers';
import { HandleInvalidError } from './vaultErrors';

export interface CredentialProxyOptions {
  handles: Pick<CredentialHandles, 'resolve' | 'proxyKeyFor' | 'resolveProxyKey'>;
  credentialFor: (connectionId: string) => Promise<UsableCredential>;
  providers: Pick<ProviderRegistry, 'get'>;
  audit: (entry: LedgerAppend) => void;
  /** Where the private folder for the unix socket is made (default: the OS temp dir; keep it short, ≤ ~90 chars). */
  socketParent?: string;
}

/** Headers that belong to one connection, or that carry the dummy key: never forwarded. */
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  HANDLE_HEADER,
]);
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade', 'proxy-authenticate']);

/**
 * The credential-injecting proxy for native agents and CLIs. A process is given a base URL on 127.0.0.1 and a dummy
 * key bound to its handle (envFor); the proxy checks the key → handle → live grant on every request, swaps in the
 * real credential, and forwards to the provider's API with the response streamed through chunk by chunk (SSE keeps
 * working). When the handle ends, requests in flight under it are cut at once and the next one is refused with a
 * clear error. Every request is one ledger entry: method, host, path, status, bytes; never headers or bodies.
 *
 * It answers the same way on a unix socket (0600, in a 0700 folder of its own): a process in the native sandbox,
 * which has a network namespace of its own, reaches it through a bridge there (LaunchPolicy.localServices, see
 * bridge) that listens on the same port number inside, so the base URL from envFor works unchanged.
 */
export class CredentialProxy implements Disposable {
  private readonly tcp: http.Server;
  private readonly unix: http.Server;
  private readonly inFlight = new Set<() => void>();

  private constructor(
    private readonly o: CredentialProxyOptions,
    private readonly socketDir: string,
  ) {
    this.tcp = this.makeServer();
    this.unix = this.makeServer();
  }

  static async start(options: CredentialProxyOptions): Promise<CredentialProxy> {
    const proxy = new CredentialProxy(options, mkdtempSync(join(options.socketParent ?? tmpdir(), 'omni-credproxy-')));
    try {
      await listen(proxy.tcp, { port: 0, host: '127.0.0.1' });
      // umask-independent: only the user may connect (the folder, 0700 from mkdtemp, already keeps others out).
      await listen(proxy.unix, { path: proxy.socketPath });
      chmodSync(proxy.socketPath, 0o600);
    } catch (error) {
      proxy.dispose();
      throw error;
    }
    return proxy;
  }

  /** http://127.0.0.1:<port> */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get port(): number {
    return (this.tcp.address() as AddressInfo).port;
  }

  /** The unix socket the proxy also answers on. */
  get socketPath(): string {
    return join(this.socketDir, 'proxy.sock');
  }

  /** What a sandboxed run puts in LaunchPolicy.localServices to reach this proxy at the same origin. */
  get bridge(): { port: number; socketPath: string } {
    return { port: this.port, socketPath: this.socketPath };
  }

  /**
   * The environment a native process gets for a handle: the provider's base-URL variable pointing here and its
   * API-key variable holding a dummy key that works only at this proxy and only while the handle lives, e.g.
   * ANTHROPIC_BASE_URL + ANTHROPIC_API_KEY, OPENAI_BASE_URL + OPENAI_API_KEY (also what a Codex custom provider's
   * base_url / env_key point at), or GOOGLE_GEMINI_BASE_URL + GEMINI_API_KEY. Providers without such variables get OMNI_<PROVIDER>_BASE_URL / _API_KEY.
   */
  envFor(handle: string): Record<string, string> {
    const { record } = this.o.handles.resolve(handle);
    const provider = this.o.providers.get(record.provider);
    const key = this.o.handles.proxyKeyFor(handle);
    const upper = provider.id.toUpperCase().replace(/[^A-Z0-9]/g, '_');
    const names = provider.proxyEnv ?? { baseUrl: `OMNI_${upper}_BASE_URL`, apiKey: `OMNI_${upper}_API_KEY` };
    return { [names.baseUrl]: `${this.origin}/${provider.id}`, [names.apiKey]: key };
  }

  dispose(): void {
    for (const cut of [...this.inFlight]) cut();
    for (const server of [this.tcp, this.unix]) {
      server.close();
      server.closeAllConnections();
    }
    rmSync(this.socketDir, { recursive: true, force: true });
  }

  private makeServer(): http.Server {
    const server = http.createServer((req, res) => void this.handle(req, res));
    // Streams can be long (a model thinking): no idle timeout on the proxy's side; the upstream's own applies.
    server.requestTimeout = 0;
    server.headersTimeout = 30_000;
    return server;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = { method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://proxy').pathname };
    const presented = dummyKeyOf(req);
    if (!presented) return refuse(res, 401, 'missing_key', 'no API key on the request: use the key the app put in the environment (…_API_KEY)');
    let resolved: ResolvedHandle;
    try {
      resolved = this.o.handles.resolveProxyKey(presented);
    } catch (error) {
      const message = error instanceof HandleInvalidError ? error.message : 'the key was refused';
      this.audit(null, started.method, null, started.path, 403, 0, 0, 'refused');
      return refuse(res, 403, 'credential_revoked', `${message}. This process can no longer use the connection.`);
    }
    const { record, signal } = resolved;
    const prefix = `/${record.provider}`;
    const rawPath = req.url ?? '/';
    if (!(rawPath === prefix || rawPath.startsWith(`${prefix}/`) || rawPath.startsWith(`${prefix}?`))) {
      return refuse(res, 400, 'wrong_route', `this key is for ${record.provider}: send requests under ${this.origin}${prefix}`);
    }
    let credential: UsableCredential;
    try {
      credential = await this.o.credentialFor(record.connectionId);
    } catch (error) {
      this.audit(record, started.method, null, started.path, 502, 0, 0, 'credential_unavailable');
      return refuse(res, 502, 'credential_unavailable', (error as Error).message);
    }
    if (!credential.apiBaseUrl) return refuse(res, 502, 'no_upstream', `${record.provider} has no API address to forward to`);
    const base = new URL(credential.apiBaseUrl);
    // The rest of the path only ever extends the base path: it cannot name another host.
    const target = new URL(`${base.pathname.replace(/\/$/, '')}${rawPath.slice(prefix.length) || '/'}`, base.origin);
    if (target.origin !== base.origin) return refuse(res, 400, 'bad_path', 'the request path does not stay on the provider');
    if (signal.aborted) return refuse(res, 403, 'credential_revoked', (signal.reason as Error).message);

    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !DROPPED_REQUEST_HEADERS.has(name)) headers[name] = value;
    }
    Object.assign(headers, credentialHeader(credential.placement, credential.value.expose()));

    let bytesUp = 0;
    let bytesDown = 0;
    let status: number | null = null;
    let outcome = 'ok';
    let finished = false;
    const finish = (how: string) => {
      if (finished) return;
      finished = true;
      this.inFlight.delete(cut);
      signal.removeEventListener('abort', cut);
      if (how !== 'ok') outcome = how;
      this.audit(record, started.method, target.host, target.pathname, status, bytesUp, bytesDown, outcome);
    };
    const transport = target.protocol === 'https:' ? https : http;
    const upstream = transport.request(target, { method: req.method, headers, agent: false });
    function cut(): void {
      const reason = (signal.reason as Error | undefined)?.message ?? 'the credential was revoked';
      answer?.unpipe(res);
      upstream.destroy();
      if (!res.headersSent) {
        refuse(res, 403, 'credential_revoked', reason);
      } else {
        // An SSE client hears why before the stream breaks; the connection is then destroyed (not ended), so no
        // client mistakes the cut for a complete answer.
        // The upstream's headers: writeHead(status, object) does not store them where res.getHeader looks.
        if (String(answer?.headers['content-type'] ?? res.getHeader('content-type') ?? '').includes('text/event-stream')) {
          // Half-closed after the event (FIN, not a reset that could drop it unread), without the chunked
          // terminator: the client reads the event, then a broken stream.
          const breakOff = setTimeout(() => res.destroy(), 200);
          res.write(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'credential_revoked', message: reason } })}\n\n`, () => {
            clearTimeout(breakOff);
            if (res.socket) res.socket.end();
            else res.destroy();
          });
        } else {
          res.destroy();
        }
      }
      finish('cut');
    }
    this.inFlight.add(cut);
    signal.addEventListener('abort', cut, { once: true });

    req.on('data', (chunk: Buffer) => (bytesUp += chunk.length));
    req.pipe(upstream);
    let answer: IncomingMessage | undefined;
    upstream.on('response', (response) => {
      answer = response;
      status = answer.statusCode ?? 502;
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !DROPPED_RESPONSE_HEADERS.has(name)) out[name] = value;
      res.writeHead(status, out);
      // Each chunk goes out as it arrives: no buffering, so server-sent events stream through.
      res.flushHeaders();
      answer.on('data', (chunk: Buffer) => (bytesDown += chunk.length));
      answer.pipe(res);
      answer.on('end', () => finish('ok'));
      answer.on('error', () => {
        // After a cut the upstream's abort lands here too; the cut already ended the response its own way.
        if (finished) return;
        res.destroy();
        finish('upstream_error');
      });
    });
    upstream.on('error', (error) => {
      if (finished) return;
      if (!res.headersSent) refuse(res, 502, 'upstream_unreachable', `${target.host} could not be reached (${(error as NodeJS.ErrnoException).code ?? error.message})`);
      else res.destroy();
      finish('upstream_error');
    });
    res.on('close', () => {
      if (!res.writableFinished) {
        upstream.destroy();
        finish('client_closed');
      }
    });
  }

  private audit(record: ResolvedHandle['record'] | null, method: string, host: string | null, path: string, status: number | null, bytesUp: number, bytesDown: number, outcome: string): void {
    this.o.audit({
      type: 'credential.proxy_request',
      actor: record ? `agent:${record.agentId}` : 'unknown',
      sessionId: record?.sessionId ?? null,
      payload: { handleId: record?.handleId ?? null, connectionId: record?.connectionId ?? null, method, host, path, status, bytesUp, bytesDown, outcome },
    });
  }
}

function listen(server: http.Server, where: { port: number; host: string } | { path: string }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The dummy key from `x-api-key` (Anthropic clients), `x-goog-api-key` (Gemini clients) or `Authorization: Bearer` (OpenAI clients). */
function dummyKeyOf(req: IncomingMessage): string | null {
  for (const name of ['x-api-key', 'x-goog-api-key']) {
    const apiKey = req.headers[name];
    if (typeof apiKey === 'string' && apiKey) return apiKey;
  }
  const auth = req.headers.authorization;
  const match = typeof auth === 'string' ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return match ? match[1] : null;
}

/** A JSON error in the shape both Anthropic and OpenAI clients print: `{error: {type, message}}`. */
function refuse(res: ServerResponse, status: number, type: string, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ type: 'error', error: { type, code: type, message: `Omniscient Shell credential proxy: ${message}` } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}
