// The reference for the agent-card flood, measured in the same run and browser: the same lines at the same rate,
// sent the way the host sends them (joined every 8 ms) over a raw WebSocket from this process into a bare page that
// keeps a 24-row window at the end of the log with plain DOM writes once per frame. No React, no store, no RPC, no
// agent process: what this machine and this Chromium give for the flood at best, under the same load.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const JOIN_MS = 8;
const ROWS = 24;

const PAGE = `<!doctype html><meta charset="utf-8"><title>flood reference</title>
<style>body{font:13px monospace;margin:0} #log{height:${ROWS * 18 + 14}px;overflow:auto;contain:strict;width:100%}
#content{position:relative} .row{position:absolute;left:0;height:18px;line-height:18px;white-space:pre;display:flex}
.no{flex:0 0 3.5rem;padding-right:.5rem;text-align:right;opacity:.7}</style>
<div id="log"><div id="content"></div></div>
<script>
  const log = document.getElementById('log'), content = document.getElementById('content');
  const lines = [];
  let tail = '', dirty = false;
  const rows = Array.from({ length: ${ROWS} }, () => { const r = document.createElement('div'); r.className = 'row'; r.innerHTML = '<span class="no"></span><span></span>'; content.appendChild(r); return r; });
  window.__counts = { changes: [], last: 0 };
  const draw = () => {
    dirty = false;
    const n = lines.length;
    content.style.height = n * 18 + 'px';
    const first = Math.max(0, n - ${ROWS});
    rows.forEach((row, i) => {
      const index = first + i;
      row.style.top = index * 18 + 'px';
      row.firstChild.textContent = index < n ? String(index + 1) : '';
      row.lastChild.textContent = index < n ? lines[index] : '';
    });
    log.scrollTop = n * 18;
    log.setAttribute('data-line-count', n);
    window.__counts.last = n;
    window.__counts.changes.push([performance.timeOrigin + performance.now(), n]);
  };
  window.__start = () => new Promise((resolve) => {
    const socket = new WebSocket('ws://' + location.host + '/flood');
    socket.onmessage = (e) => {
      const parts = (tail + e.data).split('\\n');
      tail = parts.pop();
      for (const p of parts) lines.push(p);
      if (!dirty) { dirty = true; requestAnimationFrame(draw); }
    };
    socket.onopen = () => resolve(true);
  });
</script>`;

/** Serves the page and, to each page that connects, `chunks` lines at `rate` a second; `emitted()` has their stamps. */
export async function startFloodReference({ rate, chunks, text }) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  const wss = new WebSocketServer({ server, path: '/flood' });
  let emitted = [];
  wss.on('connection', (socket) => {
    emitted = [];
    const started = performance.now();
    const startedAt = Date.now();
    let sent = 0;
    const timer = setInterval(() => {
      const due = Math.min(chunks, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
      if (due <= sent) return;
      let batch = '';
      for (; sent < due; sent++) {
        // Stamped when it was due, as the agent stamps a line when it emits it (before the host joins lines).
        const at = startedAt + (sent * 1000) / rate;
        emitted.push({ seq: sent, emittedAt: at });
        batch += `${String(sent).padStart(8, '0')} ${Math.floor(at)}${text}\n`;
      }
      socket.send(batch);
      if (sent >= chunks) clearInterval(timer);
    }, JOIN_MS);
    socket.on('close', () => clearInterval(timer));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    emitted: () => emitted,
    close: () => new Promise((resolve) => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.close(() => resolve());
    }),
  };
}
