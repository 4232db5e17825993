import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { WebSocket } from 'ws';
import { MAX_FRAME_CHARS } from '../../src-preload/rpc';
import { openSocket, startTestHost, type TestHost } from './connect';

let host: TestHost;
before(async () => {
  host = await startTestHost();
});
after(async () => {
  await host.cleanup();
});

function nextFrame(ws: WebSocket): Promise<{ t: string; id: number | null; error?: { code: string; message: string }; result?: unknown }> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

test('the WebSocket refuses a missing or wrong token, a foreign Origin and a foreign Host', async () => {
  const { port, token } = host.server;
  await assert.rejects(openSocket(port, ''), /HTTP 401/);
  await assert.rejects(openSocket(port, '?token=wrong'), /HTTP 401/);
  await assert.rejects(openSocket(port, `?token=${token}x`), /HTTP 401/);
  await assert.rejects(openSocket(port, `?token=${token}`, { Origin: 'http://evil.example' }), /HTTP 403/);
  await assert.rejects(openSocket(port, `?token=${token}`, { Origin: `http://127.0.0.1:${port + 1}` }), /HTTP 403/);
  await assert.rejects(openSocket(port, `?token=${token}`, { Host: `attacker.example:${port}` }), /HTTP 421/);
  const ok = await openSocket(port, `?token=${token}`, { Origin: `http://127.0.0.1:${port}` });
  ok.close();
});

test('every kind of bad frame gets a typed error and the host keeps serving', async () => {
  const ws = await openSocket(host.server.port, `?token=${host.server.token}`);
  const cases: [string | Buffer, string][] = [
    ['{"t":"call",', 'BAD_FRAME'],
    [Buffer.from([1, 2, 3]), 'BAD_FRAME'],
    [JSON.stringify({ t: 'call', id: 1, method: 'session.destroyEverything', params: {} }), 'UNKNOWN_METHOD'],
    [JSON.stringify({ t: 'call', id: 2, method: 'session.create', params: { workspace: 42 } }), 'INVALID_PARAMS'],
    [JSON.stringify({ t: 'call', id: 3, method: 'session.rename', params: { id: 'ses_../../etc', name: 'x' } }), 'INVALID_PARAMS'],
    [JSON.stringify({ t: 'call', id: 4, method: 'terminal.input', params: { id: 'term_doesnotexist1', data: 'x' } }), 'NOT_FOUND'],
    [JSON.stringify({ t: 'sub', id: 5, stream: 'nope', key: {}, credit: 1 }), 'UNKNOWN_STREAM'],
    [JSON.stringify({ t: 'call', id: 6, method: 'session.create', params: { workspace: 'relative/path' } }), 'INVALID_PARAMS'],
    [JSON.stringify({ t: 'call', id: 7, method: 'session.create', params: { workspace: '/no/such/folder/anywhere' } }), 'NOT_FOUND'],
    [`{"t":"call","id":8,"method":"host.info","params":{},"pad":"${'x'.repeat(MAX_FRAME_CHARS)}"}`, 'FRAME_TOO_LARGE'],
  ];
  for (const [frame, code] of cases) {
    const reply = nextFrame(ws);
    ws.send(frame);
    const answer = await reply;
    assert.equal(answer.t, 'err', `frame ${String(frame).slice(0, 60)}`);
    assert.equal(answer.error?.code, code, `frame ${String(frame).slice(0, 60)}: ${answer.error?.message}`);
  }
  const reply = nextFrame(ws);
  ws.send(JSON.stringify({ t: 'call', id: 99, method: 'host.info', params: {} }));
  assert.equal((await reply).t, 'ok');
  ws.close();
});

test('a message beyond the socket limit closes that connection only; the host stays up', async () => {
  const ws = await openSocket(host.server.port, `?token=${host.server.token}`);
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  ws.send('x'.repeat(MAX_FRAME_CHARS * 4 + 1));
  assert.equal(await closed, 1009);
  const again = await openSocket(host.server.port, `?token=${host.server.token}`);
  const reply = nextFrame(again);
  again.send(JSON.stringify({ t: 'call', id: 1, method: 'host.info', params: {} }));
  assert.equal((await reply).t, 'ok');
  again.close();
});

test('the page is served with a strict CSP and unknown hosts get nothing', async () => {
  const { port } = host.server;
  const page = await fetch(`http://127.0.0.1:${port}/`);
  assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'; script-src 'self'/);
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
  const traversal = await fetch(`http://127.0.0.1:${port}/..%2f..%2fetc%2fpasswd`);
  assert.notEqual(traversal.status, 200);
});
