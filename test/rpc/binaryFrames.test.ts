import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { stream, type TextForm } from '../../src-preload/contract';
import { BINARY_ITEM, createMemoryTransportPair, readBinaryItem, RpcClient, RpcServer, type Handlers } from '../../src-preload/rpc';
import { decodeText, encodeTextItem, utf16Length } from '../../src-preload/rpc/binaryFrame';

const Chunk = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('done'), code: z.number() }),
]);
type Chunk = z.infer<typeof Chunk>;
const asText: TextForm<Chunk> = {
  toText: (chunk) => (chunk.kind === 'text' ? chunk.text : undefined),
  fromText: (text) => ({ kind: 'text', text }),
};

const binaryContract = {
  'out.stream': stream(z.object({ items: z.array(Chunk) }), Chunk, (c) => (c.kind === 'text' ? c.text.length : 1), asText),
};
const handlers: Handlers<typeof binaryContract> = {
  'out.stream': ({ items }, sink) => {
    for (const item of items) sink.push(item);
    sink.end();
  },
};

function connect() {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const server = new RpcServer(binaryContract, handlers, serverSide, 'memory');
  const client = new RpcClient(binaryContract, clientSide);
  const wire: unknown[] = [];
  clientSide.onMessage((frame) => wire.push(frame));
  return { client, server, clientSide, serverSide, wire };
}

function collect(client: RpcClient<typeof binaryContract>, items: Chunk[]): Promise<Chunk[]> {
  return new Promise((resolve, reject) => {
    const got: Chunk[] = [];
    client.subscribe('out.stream', { items }, { onItem: (c) => got.push(c), onEnd: (e) => (e ? reject(e) : resolve(got)) });
  });
}

test('text items travel as UTF-8 bytes and arrive identical: escapes, CJK, emoji, NUL, empty', async () => {
  const { client, wire } = connect();
  const items: Chunk[] = [
    { kind: 'text', text: '\x1b[31mred\x1b[0m\r\n' },
    { kind: 'text', text: '日本語 ✓ 🙂 \u0000 tail' },
    { kind: 'text', text: '' },
    { kind: 'text', text: 'x'.repeat(300_000) },
    { kind: 'done', code: 3 },
  ];
  assert.deepEqual(await collect(client, items), items);
  const binary = wire.filter((f) => typeof f !== 'string');
  assert.equal(binary.length, 4, 'every text item went as a binary frame');
  assert.ok(wire.some((f) => typeof f === 'string' && f.includes('"done"')), 'the non-text item went as JSON');
  const first = readBinaryItem(binary[0]);
  assert.equal((binary[0] as Uint8Array)[0], BINARY_ITEM);
  assert.equal(Buffer.from(first!.bytes).toString('utf8'), '\x1b[31mred\x1b[0m\r\n', 'raw bytes, no JSON escaping');
});

test('credit is counted in characters on both sides, so a text stream with small credit still completes', async () => {
  const { client } = connect();
  const items: Chunk[] = Array.from({ length: 50 }, (_, i) => ({ kind: 'text', text: `line ${i} ü€😀\r\n`.repeat(40) }));
  const got = await new Promise<Chunk[]>((resolve, reject) => {
    const seen: Chunk[] = [];
    client.subscribe('out.stream', { items }, { onItem: (c) => seen.push(c), onEnd: (e) => (e ? reject(e) : resolve(seen)) }, { credit: 2000 });
  });
  assert.deepEqual(got, items);
});

test('the host refuses binary frames from a client, and a client ignores binary frames it cannot place', async () => {
  const { client, clientSide, serverSide } = connect();
  const replies: string[] = [];
  clientSide.onMessage((frame) => typeof frame === 'string' && replies.push(frame));
  clientSide.send(new Uint8Array([BINARY_ITEM, 0, 0, 0, 1, 65]));
  await new Promise((r) => setTimeout(r, 10));
  assert.match(replies.join(''), /"BAD_FRAME"/);
  // Unknown subscription, truncated header, wrong kind: dropped without throwing, and the stream still works after.
  serverSide.send(new Uint8Array([BINARY_ITEM, 0, 0, 0, 99, 65]));
  serverSide.send(new Uint8Array([BINARY_ITEM, 0]));
  serverSide.send(new Uint8Array([0x7f, 0, 0, 0, 1, 65]));
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(await collect(client, [{ kind: 'text', text: 'still fine' }]), [{ kind: 'text', text: 'still fine' }]);
});

test('each encoded frame keeps its own bytes: later items (smaller, larger, huge) never overwrite an earlier frame', () => {
  // The encoder reuses one scratch buffer between calls; every frame it returns must still be a copy of its own.
  const texts = ['\x1b[31mred\x1b[0m \u4e2d\u6587 \u{1f600}', 'x'.repeat(300_000), 'short', '\u00e9'.repeat(1_500_000), 'after the huge one'];
  const frames = texts.map((text, i) => encodeTextItem(i + 1, text));
  frames.forEach((frame, i) => {
    const item = readBinaryItem(frame);
    assert.ok(item, `frame ${i + 1} is a binary item`);
    assert.equal(item.id, i + 1);
    assert.equal(decodeText(item.bytes), texts[i], `frame ${i + 1}`);
    assert.equal(frame.byteLength, 5 + Buffer.byteLength(texts[i]), `frame ${i + 1} is exactly header + UTF-8`);
  });
});

test('a subscriber that reads UTF-8 itself gets text items as their bytes, weighed as the host weighed the text', async () => {
  const { client } = connect();
  // Escapes, two- and three-byte characters, emoji (a surrogate pair: two units), a lone surrogate (sent as U+FFFD,
  // still one unit), and a long ASCII run whose words land on every alignment.
  const texts = ['\x1b[31mred\x1b[0m\r\n', 'ü€ 日本語', '😀 ok 🙂', 'lone \ud800 surrogate', 'a'.repeat(100_003), ''];
  const items: Chunk[] = [...texts.map((text): Chunk => ({ kind: 'text', text })), { kind: 'done', code: 0 }];
  const got: { bytes: Uint8Array; weight: number }[] = [];
  const asItems: Chunk[] = [];
  await new Promise<void>((resolve, reject) => {
    const subscription = client.subscribe(
      'out.stream',
      { items },
      {
        onItem: (chunk) => asItems.push(chunk),
        onTextBytes: (bytes, weight) => {
          got.push({ bytes: bytes.slice(), weight });
          subscription.ack(weight);
        },
        onEnd: (e) => (e ? reject(e) : resolve()),
      },
      // Less credit than the stream's total: it completes only if every returned weight is what the host counted.
      { credit: 1000, manualAck: true },
    );
  });
  assert.deepEqual(asItems, [{ kind: 'done', code: 0 }], 'only the non-text item comes through onItem');
  assert.deepEqual(
    got.map(({ bytes }) => decodeText(bytes)),
    texts.map((text) => text.replace('\ud800', '\ufffd')),
  );
  assert.deepEqual(
    got.map(({ weight }) => weight),
    texts.map((text) => text.length),
  );
});

test('utf16Length counts what decoding would give, for long and short text at any offset into a frame', () => {
  const encoder = new TextEncoder();
  const texts = ['', 'a', 'é', '€', '😀', 'a😀', 'ab€', `${'x'.repeat(37)}é€😀\r\n${'y'.repeat(41)}語`];
  for (const text of texts) {
    const bytes = encoder.encode(text);
    for (let offset = 0; offset < 8; offset++) {
      const frame = new Uint8Array(offset + bytes.length + 3);
      frame.set(bytes, offset);
      assert.equal(utf16Length(frame.subarray(offset, offset + bytes.length)), text.length, `${JSON.stringify(text.slice(0, 12))} at byte ${offset}`);
    }
  }
});

test('pushText: UTF-8 handed over as bytes arrives as those bytes, weighed by its characters, or as JSON where binary frames cannot go', async () => {
  const texts = ['\x1b[1mbold\x1b[0m ü€ 日本語 😀\r\n', 'b'.repeat(70_001), '🙂'.repeat(500)];
  const utf8 = (text: string) => ({ bytes: new Uint8Array(Buffer.from(text, 'utf8')), chars: text.length, text });
  const textContract = {
    'out.text': stream(z.object({}), Chunk, (c) => (c.kind === 'text' ? c.text.length : 1), asText),
  };
  const textHandlers: Handlers<typeof textContract> = {
    'out.text': (_key, sink) => {
      for (const text of texts) sink.pushText!(utf8(text));
      sink.push({ kind: 'done', code: 0 });
      sink.end();
    },
  };
  const [clientSide, serverSide] = createMemoryTransportPair();
  new RpcServer(textContract, textHandlers, serverSide, 'memory');
  const client = new RpcClient(textContract, clientSide);
  const wire: unknown[] = [];
  clientSide.onMessage((frame) => wire.push(frame));
  const got: Chunk[] = [];
  await new Promise<void>((resolve, reject) => {
    // Less credit than the stream's total: it completes only if the weights match on both sides.
    client.subscribe('out.text', {}, { onItem: (c) => got.push(c), onEnd: (e) => (e ? reject(e) : resolve()) }, { credit: 1000 });
  });
  assert.deepEqual(got, [...texts.map((text): Chunk => ({ kind: 'text', text })), { kind: 'done', code: 0 }]);
  const binary = wire.filter((f) => typeof f !== 'string').map((f) => readBinaryItem(f)!);
  assert.deepEqual(binary.map((b) => decodeText(b.bytes)), texts, 'each pushed text is one binary frame of exactly its bytes');

  // A subscription id beyond the binary header's 32 bits: the same items as JSON.
  const frames: unknown[] = [];
  clientSide.onMessage((frame) => frames.push(frame));
  const bigId = 2 ** 32 + 5;
  clientSide.send(JSON.stringify({ t: 'sub', id: bigId, stream: 'out.text', key: {}, credit: 1_000_000 }));
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(frames.every((f) => typeof f === 'string'), 'no binary frame for the large id');
  const items = frames.map((f) => JSON.parse(f as string) as { t: string; id: number; item?: Chunk }).filter((f) => f.t === 'item');
  assert.deepEqual(items.map((f) => f.item), [...texts.map((text): Chunk => ({ kind: 'text', text })), { kind: 'done', code: 0 }]);
  assert.ok(items.every((f) => f.id === bigId));
});
