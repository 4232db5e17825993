// The reference's tiny Node server: serves the bare xterm page, streams the payload over a raw WebSocket in
// 64 KB text messages when the harness says go, and collects the results the page POSTs.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { URLSearchParams } from 'node:url';
import { WebSocketServer } from 'ws';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

function deferred() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

/** `payload` is the exact text xterm must parse (CRLF line ends, as the product's pty produces). */
export async function startReferenceServer({ dir, payload, chunkChars = 64 * 1024 }) {
  const connections = new Map(); // run → deferred socket
  const results = new Map(); // run → deferred result
  const slot = (map, run) => {
    if (!map.has(run)) map.set(run, deferred());
    return map.get(run);
  };

  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/results') {
      let body = '';
      for await (const chunk of req) body += chunk;
      try {
        const result = JSON.parse(body);
        slot(results, String(result.run)).resolve(result);
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
      return;
    }
    const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    if (!/^[\w.-]+$/.test(name)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const data = await readFile(join(dir, name));
      res.writeHead(200, { 'content-type': TYPES[extname(name)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(data);
    } catch {
      res.writeHead(404).end();
    }
  });
  const wss = new WebSocketServer({ server: http, path: '/stream', perMessageDeflate: false });
  wss.on('connection', (socket, req) => {
    const run = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('run') ?? '';
    slot(connections, run).resolve(socket);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address();

  return {
    port,
    url: (params) => `http://127.0.0.1:${port}/?${new URLSearchParams(params)}`,
    connected: (run) => slot(connections, run).promise,
    result: (run) => slot(results, run).promise,
    /** Sends the whole payload at once; the socket and TCP buffer it, no application-level flow control. */
    async stream(run) {
      const socket = await slot(connections, run).promise;
      for (let at = 0; at < payload.length; at += chunkChars) socket.send(payload.slice(at, at + chunkChars));
    },
    close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      return new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
