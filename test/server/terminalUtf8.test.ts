import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Contract } from '../../src-preload/contract';
import type { RpcClient } from '../../src-preload/rpc';
import { PtyProcess } from '../../src-main/node/terminals/ptyProcess';
import { Utf8Chunk, completeLength } from '../../src-main/node/base/utf8Chunk';
import { EventKind } from '../../src-main/node/eventlog/eventKinds';
import { readSessionEvents } from '../../src-main/node/eventlog/storedEvents';
import type { HostServices } from '../../src-main/node/hostServices';
import { tempDir, waitFor } from '../helpers';
import { hostWithWorkspace } from './connect';

/** Prints multi-byte characters cut between writes (so between pty reads), with pauses longer than a flush. */
const SPLIT_SCRIPT = [
  "printf 'A\\342'; sleep 0.05",
  "printf '\\234\\223B\\360\\237'; sleep 0.05",
  "printf '\\231\\202C\\303'; sleep 0.05",
  "printf '\\251D\\360'; sleep 0.05",
  "printf '\\237\\231'; sleep 0.05",
  "printf '\\202E\\n'",
].join('\n');
const SPLIT_TEXT = 'A✓B🙂CéD🙂E\r\n';

/** Two readers of one terminal: one as the renderer reads (UTF-8 bytes), one as text items. */
function readers(client: RpcClient<Contract>, id: string) {
  const got = { bytes: [] as Buffer[], text: '', bytesWeight: 0, exit: undefined as number | null | undefined };
  client.subscribe('terminal.output', { id }, {
    onItem: () => undefined,
    onTextBytes: (bytes, weight) => {
      got.bytes.push(Buffer.from(bytes));
      got.bytesWeight += weight;
    },
  });
  client.subscribe('terminal.output', { id }, {
    onItem: (event) => {
      if (event.type === 'data') got.text += event.data;
      else got.exit = event.exitCode;
    },
  });
  return { got, bytesText: () => Buffer.concat(got.bytes).toString('utf8') };
}

/** The terminal's output as the event log stored it, once its writer thread has caught up. */
function storedOutput(services: HostServices, sessionId: string, terminalId: string): string {
  services.events.log.settle();
  return readSessionEvents(services.db, sessionId)
    .filter((e) => e.kind === EventKind.terminalOutput && e.subject === terminalId)
    .map((e) => e.data)
    .join('');
}

test('characters split across pty reads arrive whole at every reader and in the event log, character for character', async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  writeFileSync(join(workspace.path, 'split.sh'), SPLIT_SCRIPT);
  const session = await client.call('session.create', { workspace: workspace.path });
  const term = await client.call('terminal.open', { sessionId: session.id, cols: 80, rows: 24 });
  const { got, bytesText } = readers(client, term.id);
  await client.call('terminal.input', { id: term.id, data: 'bash ./split.sh; echo DONE""MARK\r' });
  await waitFor(() => got.text.includes('DONEMARK') && bytesText().includes('DONEMARK'), 'both readers to see the end marker');

  assert.ok(got.text.includes(SPLIT_TEXT), `text reader: ${JSON.stringify(got.text.slice(-80))}`);
  assert.equal(bytesText(), got.text, 'the bytes reader decodes to exactly what the text reader got');
  assert.equal(got.bytesWeight, got.text.length, 'credit weight of the bytes is the length of their text');
  assert.ok(!got.text.includes('\ufffd'), 'no replacement characters');
  for (const frame of got.bytes) assert.equal(completeLength(frame), frame.length, 'every frame ends on a character boundary');

  // The live scrollback and the stored rows hold the same text, character for character.
  const services = host.server.services;
  const scrollback = services.events.live(session.id).state.terminals.find((v) => v.terminal.id === term.id)!.scrollback;
  assert.equal(scrollback, got.text);
  assert.equal(storedOutput(services, session.id, term.id), got.text);
});

test('an incomplete character at the very end of the output arrives as U+FFFD, the same everywhere', async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  writeFileSync(join(workspace.path, 'tail.sh'), "printf 'END\\342\\234'\n");
  const session = await client.call('session.create', { workspace: workspace.path });
  const term = await client.call('terminal.open', { sessionId: session.id, cols: 80, rows: 24 });
  const { got, bytesText } = readers(client, term.id);
  await client.call('terminal.input', { id: term.id, data: 'exec bash ./tail.sh\r' });
  await waitFor(() => got.exit !== undefined, 'the shell to exit');
  await waitFor(() => bytesText() === got.text, 'the bytes reader to catch up');
  assert.ok(got.text.endsWith('END\ufffd'), JSON.stringify(got.text.slice(-20)));
  assert.equal(storedOutput(host.server.services, session.id, term.id), got.text);
});

test('the pty is read as bytes, and its line discipline still knows the terminal is UTF-8 (iutf8)', async () => {
  const dir = tempDir('pty');
  const pty = new PtyProcess({ shell: '/bin/sh', args: ['-c', 'stty -a; printf "x\\303\\251y"'], cwd: dir.path, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cols: 80, rows: 24 });
  const raw: unknown[] = [];
  (pty as unknown as { pty: { onData(listener: (chunk: unknown) => void): void } }).pty.onData((chunk) => raw.push(chunk));
  let text = '';
  pty.onDidData((chunk) => (text += chunk.text));
  await new Promise<void>((resolve) => pty.onDidExit(() => resolve()));
  pty.dispose();
  dir.cleanup();
  assert.ok(raw.length > 0 && raw.every((chunk) => chunk instanceof Uint8Array), 'node-pty delivered bytes, not strings');
  assert.match(text, /(^|\s)iutf8(\s|;|$)/, 'iutf8 is set');
  assert.ok(text.endsWith('xéy'), JSON.stringify(text.slice(-10)));
});

test('Utf8Chunk: bytes that are not UTF-8 become the UTF-8 of their decoding; a chunk owns its bytes', () => {
  const bad = Utf8Chunk.fromBytes(Buffer.from([0x61, 0xff, 0x62, 0xc3]));
  assert.equal(bad.text, 'a\ufffdb\ufffd');
  assert.equal(bad.chars, 4);
  assert.equal(Buffer.from(bad.bytes).toString('utf8'), bad.text);
  const big = Buffer.alloc(10_000, 0x41);
  const view = Utf8Chunk.fromBytes(big.subarray(10, 20));
  assert.equal(view.bytes.buffer.byteLength, 10, 'a view into a larger buffer is copied out');
  const emoji = Utf8Chunk.fromBytes(Buffer.from('日本🙂', 'utf8'));
  assert.equal(emoji.chars, '日本🙂'.length);
  assert.deepEqual(
    [[0x41], [0x41, 0xe2], [0x41, 0xe2, 0x9c], [0xe2, 0x9c, 0x93], [0xf0, 0x9f, 0x99], [0xf0, 0x9f, 0x99, 0x82], [0x9c], [0xff]].map((b) => completeLength(Uint8Array.from(b))),
    [1, 1, 1, 3, 0, 4, 1, 1],
  );
});
