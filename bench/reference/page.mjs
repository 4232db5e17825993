// The reference page: only xterm.js, fed by a raw WebSocket (no RPC, no flow control). It keeps the same
// `window.__omniTerminalStats[id].bytesParsed` counter as the product's terminal card, so the harness measures
// both pages with the same code, and it also times itself (first message → last write callback) and POSTs that.
/* global window, document, location, WebSocket, URLSearchParams */
import '@xterm/xterm/css/xterm.css';
import { Terminal } from '@xterm/xterm';

const params = new URLSearchParams(location.search);
const number = (name, fallback) => (params.has(name) ? Number(params.get(name)) : fallback);
const run = params.get('run') ?? 'paint';
const expected = number('bytes', 0);

const term = new Terminal({
  cols: number('cols', 120),
  rows: number('rows', 40),
  scrollback: number('scrollback', 1000),
  fontSize: number('fontSize', 15),
  fontFamily: params.get('fontFamily') ?? 'courier-new, courier, monospace',
});
term.open(document.getElementById('terminal'));
term.write('bare xterm.js reference page\r\n');

const stats = { bytesParsed: 0, messages: 0 };
window.__omniTerminalStats = { reference: stats };

function report(body) {
  return fetch('/results', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run, ...body }) });
}

if (params.get('mode') === 'stream') {
  const socket = new WebSocket(`ws://${location.host}/stream?run=${encodeURIComponent(run)}`);
  let firstMessageAt;
  let received = 0;
  socket.onmessage = (event) => {
    const data = event.data;
    firstMessageAt ??= performance.now();
    received += data.length;
    stats.messages++;
    term.write(data, () => {
      stats.bytesParsed += data.length;
      if (stats.bytesParsed === expected) {
        const ms = performance.now() - firstMessageAt;
        void report({ ok: true, bytes: stats.bytesParsed, ms, messages: stats.messages, received });
      }
    });
  };
  socket.onerror = () => void report({ ok: false, error: 'websocket error' });
}
