import { lookup } from 'node:dns/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import { blockedAddressReason } from '../wasm/blockedAddress';
import { parseDomainAllowlist } from './domainPattern';
import type { NetworkRequestEvent } from './launchPolicy';

/**
 * The only way out of a sandbox with a network grant: an HTTP proxy on a unix socket in the host, bridged into the
 * sandbox's own network namespace. It tunnels CONNECT (HTTPS and anything else over TLS) and forwards plain HTTP in
 * absolute form, each only to a host the grant's allowlist names, and only when every address the name resolves to
 * is on the public internet (the host's loopback, private and link-local networks stay unreachable, also through
 * DNS that points there). It connects to the address it checked, so a second DNS answer cannot slip in.
 */
export interface EgressProxyOptions {
  /** A unix socket path (Linux: bridged into the sandbox), or a TCP port on 127.0.0.1 (macOS; 0 picks one). */
  listen: { path: string } | { port: number };
  allowDomains: readonly string[];
  label?: string;
  stillGranted?(): boolean;
  onRequest?(event: NetworkRequestEvent): void;
  /** Name → addresses; the system resolver unless a test stands in an "internet" of its own. */
  resolveHost?(host: string): Promise<string[]>;
  /** Exact addresses reachable although not public (a test's fake internet host, a model server the user chose). */
  trustedAddresses?: ReadonlySet<string>;
}

export interface EgressProxy {
  /** The TCP port when listening on one. */
  port: number | null;
  close(): Promise<void>;
}

/** Headers that belong to one hop, not to the request being forwarded. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

const systemResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

type Verdict = { allowed: true; address: string } | { allowed: false; status: number; reason: string };

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const allowlist = parseDomainAllowlist(options.allowDomains);
  const resolveHost = options.resolveHost ?? systemResolve;
  const trusted = options.trustedAddresses ?? new Set<string>();
  const sockets = new Set<Socket>();

  async function decide(host: string): Promise<Verdict> {
    if (options.stillGranted && !options.stillGranted()) return { allowed: false, status: 403, reason: 'the network grant was revoked' };
    if (!allowlist.matches(host)) return { allowed: false, status: 403, reason: `${host} is not in the network grant's allowlist` };
    const name = host.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = isIP(name) ? [name] : await resolveHost(name);
    } catch (error) {
      return { allowed: false, status: 502, reason: `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
    }
    if (addresses.length === 0) return { allowed: false, status: 502, reason: `${host} does not resolve` };
    for (const address of addresses) {
      const why = trusted.has(address) ? null : blockedAddressReason(address);
      if (why) return { allowed: false, status: 403, reason: `${host} resolves to ${address} (${why}); only public internet addresses are reachable` };
    }
    return { allowed: true, address: addresses[0] };
  }

  function report(host: string, port: number, method: string, verdict: Verdict): void {
    options.onRequest?.({ label: options.label, host, port, method, allowed: verdict.allowed, reason: verdict.allowed ? 'allowlisted' : verdict.reason });
  }

  const server = createServer();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url ?? '');
    if (!target) {
      client.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\n\r\nCONNECT needs host:port\n`);
      return;
    }
    void decide(target.host).then((verdict) => {
      report(target.host, target.port, 'CONNECT', verdict);
      if (!verdict.allowed) {
        client.end(`HTTP/1.1 ${verdict.status} Refused by the sandbox\r\ncontent-type: text/plain\r\n\r\n${verdict.reason}\n`);
        return;
      }
      const upstream = connect({ host: verdict.address, port: target.port });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', (error) => {
        if (!client.writableEnded && upstream.bytesRead === 0) client.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\n${error.message}\n`);
        else client.destroy();
      });
      client.on('close', () => upstream.destroy());
    });
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      refuse(res, 400, 'the proxy takes absolute-form requests (http://host/path); use CONNECT for https');
      return;
    }
    if (url.protocol !== 'http:') {
      refuse(res, 400, `${url.protocol} is not proxied in plain form; use CONNECT (an https_proxy) for TLS`);
      return;
    }
    const port = Number(url.port || 80);
    const host = url.hostname;
    void decide(host).then((verdict) => {
      report(host, port, req.method ?? 'GET', verdict);
      if (!verdict.allowed) {
        refuse(res, verdict.status, verdict.reason);
        return;
      }
      const upstream = httpRequest({
        host: verdict.address,
        port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: { ...forwardable(req.headers), host: url.host },
        setHost: false,
        agent: false,
      });
      upstream.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
        answer.pipe(res);
      });
      upstream.on('error', (error) => {
        if (!res.headersSent) refuse(res, 502, `${host} could not be reached: ${error.message}`);
        else res.destroy();
      });
      req.pipe(upstream);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if ('path' in options.listen) server.listen(options.listen.path, () => resolve());
    else server.listen(options.listen.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();

  return {
    port: typeof address === 'object' && address ? address.port : null,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function refuse(res: ServerResponse, status: number, reason: string): void {
  res.writeHead(status, { 'content-type': 'text/plain', 'x-omni-sandbox': 'refused' });
  res.end(`${reason}\n`);
}

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_HEADERS.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1], port } : null;
}
