// The reference's tiny Node server: serves the bare xterm page and, when the harness says go, streams the payload
// to it over a raw WebSocket in text messages of up to 64 KB: from memory, or as the output of `cat` in a pty (the
// minimal terminal server); it also collects the results the page POSTs.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { URLSearchParams } from 'node:url';
import { spawn as spawnPty } from 'node-pty';
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
    /**
     * The minimal terminal server: `cat file` in a pty of the page's size (node-pty, as the product's terminals),
     * its output sent on as it is read, with no flow control. Resolves when the pty's process has exited.
     */
    async streamPty(run, file, { cols, rows }) {
      const socket = await slot(connections, run).promise;
      // sh stays a moment after cat so the pty is read to its end before it closes (node-pty #72 drops the last KBs
      // of a child that exits right after writing).
      const child = spawnPty('sh', ['-c', 'cat "$1"; sleep 1', 'sh', file], { name: 'xterm-256color', cols, rows, cwd: dir, env: { PATH: process.env.PATH, LANG: 'C.UTF-8' } });
      // Reads (~4 KB each) are gathered into messages of up to chunkChars, each sent at most 5 ms after its first
      // read, as the product gathers them into frames; one message per read leaves the page many times more writes
      // to make, and the reference slower (docs/performance.md#terminal-throughput).
      let pending = [];
      let size = 0;
      let timer;
      const flush = () => {
        clearTimeout(timer);
        timer = undefined;
        if (size === 0) return;
        socket.send(pending.length === 1 ? pending[0] : pending.join(''));
        pending = [];
        size = 0;
      };
      child.onData((data) => {
        pending.push(data);
        size += data.length;
        if (size >= chunkChars) flush();
        else timer ??= setTimeout(flush, 5);
      });
      return new Promise((resolve) =>
        child.onExit(() => {
          flush();
          resolve();
        }),
      );
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
