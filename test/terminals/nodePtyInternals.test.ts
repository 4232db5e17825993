// A canary for a node-pty upgrade: PtyProcess reaches past node-pty's API for two things (nodePtyInternals.ts), and
// if an upgrade moves those fields the adapter quietly does without them. This test says which field went.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isatty } from 'node:tty';
import { test } from 'node:test';
import type * as NodePty from 'node-pty';
import { loadNative } from '../../src-main/node/base/native';
import { masterFd, onceReadEnd, takeReadsAsBytes } from '../../src-main/node/terminals/nodePtyInternals';

const nodePtyVersion = (JSON.parse(readFileSync(createRequire(__filename).resolve('node-pty/package.json'), 'utf8')) as { version: string }).version;
const changed = (what: string) => `node-pty ${nodePtyVersion} changed its internals: ${what}; update src-main/node/terminals/nodePtyInternals.ts`;

function spawn(t: { after(fn: () => void): void }): NodePty.IPty {
  const pty = loadNative<typeof NodePty>('node-pty').spawn('/bin/sh', ['-c', 'printf ready; sleep 5'], { name: 'xterm-256color', cols: 80, rows: 24, cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  t.after(() => pty.kill('SIGKILL'));
  return pty;
}

test('the node-pty fields the adapter relies on are there, with the types it expects', (t) => {
  const pty = spawn(t) as unknown as Record<string, unknown>;
  const socket = pty._socket as Record<string, unknown> | undefined;
  assert.ok(socket && typeof socket === 'object', changed('_socket is missing'));
  assert.equal(typeof socket.once, 'function', changed('_socket.once is missing (the read stream is no EventEmitter)'));
  const state = socket._readableState as Record<string, unknown> | undefined;
  assert.ok(state && typeof state === 'object', changed('_socket._readableState is missing'));
  assert.ok('decoder' in state, changed('_socket._readableState.decoder is missing'));
  assert.ok('encoding' in state, changed('_socket._readableState.encoding is missing'));
  assert.equal(state.encoding, 'utf8', changed('_socket._readableState.encoding is not the utf8 node-pty sets'));
  assert.equal(typeof pty._fd, 'number', changed(`_fd is missing (it is ${typeof pty._fd})`));
  assert.ok(isatty(pty._fd as number), changed('_fd is not the terminal\'s master side'));
});

test('through the adapter: reads arrive as bytes, the master descriptor is found and the end of reading is heard', async (t) => {
  const pty = spawn(t);
  assert.equal(takeReadsAsBytes(pty), true, changed('the read stream\'s decoder could not be undone'));
  const fd = masterFd(pty);
  assert.ok(fd !== null && isatty(fd), changed('_fd is missing'));
  assert.equal(onceReadEnd(pty, () => undefined), true, changed('_socket is missing'));
  const first = await new Promise<string | Uint8Array>((resolve) => pty.onData(resolve));
  assert.ok(first instanceof Uint8Array, changed(`reads still arrive as ${typeof first} after takeReadsAsBytes`));
  assert.match(Buffer.from(first).toString('utf8'), /ready/);
});

test('without those fields the adapter does nothing rather than throw', () => {
  const bare = { pid: 1 } as unknown as NodePty.IPty;
  assert.equal(takeReadsAsBytes(bare), false);
  assert.equal(masterFd(bare), null);
  assert.equal(onceReadEnd(bare, () => assert.fail('called')), false);
});
