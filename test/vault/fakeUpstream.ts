// Stands in for a model provider's API on the internet (which a test cannot reach): an OpenAI/Anthropic-style
// endpoint on 127.0.0.1 that checks the credential it receives and streams server-sent events.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  /** The credential as received (x-api-key or the Bearer token); null when none. */
  credential: string | null;
  /** Header names as received, lowercased. */
  headerNames: string[];
}

export interface FakeUpstream {
  origin: string;
  seen: SeenRequest[];
  /** Credentials it accepts, by sha256, each with a label it answers with. */
  accept(credential: string, label: string): void;
  /** Streams still open (the revoke test watches the proxy cut them). */
  openStreams: number;
  close(): Promise<void>;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Routes: GET …/stream opens a stream that never ends; POST …/chat/completions or …/messages with `"stream": true` streams `events` SSE events `gapMs` apart
 * (events = -1: until the client goes away), then `data: [DONE]`; GET …/models answers JSON; GET /redirect sends
 * a 302 to the `to` query parameter. A request without an accepted credential gets 401.
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const accepted = new Map<string, string>();
  const seen: SeenRequest[] = [];
  const upstream: FakeUpstream = {
    origin: '',
    seen,
    accept: (credential, label) => accepted.set(sha(credential), label),
    openStreams: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const credential = (req.headers['x-api-key'] as string | undefined) ?? bearer;
    seen.push({ method: req.method ?? '', path: url.pathname, credential, headerNames: Object.keys(req.headers) });
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    }
    const label = credential ? accepted.get(sha(credential)) : undefined;
    if (url.pathname.endsWith('/echo')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ credential: label ?? null }));
      return;
    }
    if (!label) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'authentication_error', message: 'invalid credential' } }));
      return;
    }
    if (req.method === 'GET' && url.pathname.endsWith('/stream')) {
      // Never ends: a request in flight until someone aborts it.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      upstream.openStreams++;
      res.on('close', () => upstream.openStreams--);
      return;
    }
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'fake-model' }], credential: label }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { events?: number; gapMs?: number };
      const total = body.events ?? 10;
      const gapMs = body.gapMs ?? 10;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      upstream.openStreams++;
      let sent = 0;
      const timer = setInterval(() => {
        if (total >= 0 && sent >= total) {
          clearInterval(timer);
          res.end('data: [DONE]\n\n');
          return;
        }
        res.write(`data: ${JSON.stringify({ seq: sent, label })}\n\n`);
        sent++;
      }, gapMs);
      res.on('close', () => {
        clearInterval(timer);
        upstream.openStreams--;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}
