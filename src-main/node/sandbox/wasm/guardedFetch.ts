import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { blockedAddressReason } from './blockedAddress';
import { HostCallError } from './hostCallError';

export interface FetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FetchResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface GuardedFetchOptions {
  /**
   * Asked before every hop (the first URL and each redirect's target): throws a HostCallError to refuse, or returns
   * the signal that aborts the hop (the grant's: a revoke aborts the request at once, with the signal's reason).
   */
  authorize(url: URL): AbortSignal;
  /**
   * Exact addresses the user chose to let agents reach although they are not public (a model server on this
   * machine, say). Empty unless configured; tests use it for their local servers.
   */
  trustedAddresses?: ReadonlySet<string>;
  maxBodyBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /**
   * Headers for one hop only, decided per URL (a credential the vault injects toward its provider's hosts): never
   * carried over to a redirect's next hop unless asked for again.
   */
  headersFor?: (url: URL) => Record<string, string>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers the host sets itself, or that would let a guest reshape the connection. */
const REFUSED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'keep-alive', 'proxy-authorization', 'proxy-connection']);
const CREDENTIAL_HEADERS = ['authorization', 'cookie'];

function blocked(host: string, address: string, why: string): HostCallError {
  const what = host === address ? `${host} is a ${why} address` : `${host} resolves to ${address} (${why})`;
  return new HostCallError('blocked_address', `${what}; agents may reach only public internet addresses`, 'use a public host name');
}

/**
 * The refusal for a host known to be blocked without a DNS lookup: an IP literal outside the public internet, or
 * "localhost" (and *.localhost, RFC 6761), which always means this machine. Null when only DNS can tell.
 */
export function knownBlockedHost(host: string, trusted: ReadonlySet<string> = new Set()): HostCallError | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (isIP(name)) {
    const why = trusted.has(name) ? null : blockedAddressReason(name);
    return why ? blocked(name, name, why) : null;
  }
  if (name === 'localhost' || name.endsWith('.localhost')) {
    if (trusted.has('127.0.0.1') || trusted.has('::1')) return null;
    return new HostCallError('blocked_address', `${host} is this machine (loopback); agents may reach only public internet addresses`, 'use a public host name');
  }
  return null;
}

/**
 * An outbound HTTP(S) request on an agent's behalf. Every address a host name resolves to is checked when the
 * connection is made (Node's `lookup` hook), so a name that resolves to this machine or a private network is
 * refused, and so is DNS that changes its answer between a check and the connect. Redirects are followed by hand
 * (at most `maxRedirects`), each hop authorized and checked again.
 */
export async function guardedFetch(request: FetchRequest, options: GuardedFetchOptions): Promise<FetchResponse> {
  const trusted = options.trustedAddresses ?? new Set<string>();
  const maxBody = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new HostCallError('bad_request', `"${request.url}" is not a URL`, 'send an absolute http:// or https:// URL');
  }
  let method = request.method.toUpperCase();
  let body = request.body;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!REFUSED_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }

  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new HostCallError('bad_request', `${url.protocol} URLs are not fetched`, 'use http:// or https://');
    }
    // Checked before authorize: an address the network policy refuses anyway is never put to the user as a
    // question (an "Allow" on 127.0.0.1 would be followed by a block anyway).
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const refusal = knownBlockedHost(host, trusted);
    if (refusal) throw refusal;
    const signal = options.authorize(url);
    const hopHeaders = options.headersFor ? { ...headers, ...lowerCased(options.headersFor(url)) } : headers;
    const response = await oneHop(url, method, hopHeaders, body, { signal, trusted, maxBody, deadline });
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || !location) return { ...response, url: url.toString() };
    if (hop >= (options.maxRedirects ?? 5)) {
      throw new HostCallError('bad_request', `${request.url} redirected more than ${options.maxRedirects ?? 5} times`, 'fetch the final URL directly');
    }
    const next = new URL(location, url);
    if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    url = next;
  }
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function oneHop(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  limits: { signal: AbortSignal; trusted: ReadonlySet<string>; maxBody: number; deadline: number },
): Promise<Omit<FetchResponse, 'url'>> {
  const { signal, trusted, maxBody, deadline } = limits;
  if (signal.aborted) return Promise.reject(signal.reason);
  const lookup = (hostname: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(new HostCallError('not_found', `${hostname} does not resolve (${error.code ?? error.message})`, 'check the host name'));
        return;
      }
      for (const { address } of addresses) {
        const why = trusted.has(address) ? null : blockedAddressReason(address);
        if (why) {
          callback(blocked(hostname, address, why));
          return;
        }
      }
      if (opts.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
  return new Promise((resolve, reject) => {
    const timeLeft = deadline - Date.now();
    const timer = setTimeout(() => req.destroy(new HostCallError('timeout', `${url.origin} did not answer in time`, 'try again later, or a faster server')), Math.max(0, timeLeft));
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(url, { method, headers, lookup: lookup as never, signal, agent: false });
    const fail = (error: unknown) => {
      clearTimeout(timer);
      if (signal.aborted) reject(signal.reason);
      else if (error instanceof HostCallError) reject(error);
      else reject(new HostCallError('not_found', `${url.origin} could not be reached: ${(error as Error).message}`, 'check the URL and try again'));
    };
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBody) {
          req.destroy(new HostCallError('too_large', `${url.origin} answered more than ${maxBody} bytes`, 'ask for less (a range, a page)'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks) });
      });
    });
    req.end(body);
  });
}
