// RpcServerOptions.batch (the host's WebSocket endpoint): consecutive items of a subscription leave as one `items`
// frame, every other frame flushes the batch first (the order on the wire stays the order things were sent), a long
// synchronous burst goes out in frames of bounded size, and the client delivers each item as if it came alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { call, stream } from '../../src-preload/contract';
import { createMemoryTransportPair, RpcClient, RpcServer, type Handlers, type StreamSink, type Transport } from '../../src-preload/rpc';

const contract = {
  'batch.items': stream(z.object({}), z.object({ n: z.number(), text: z.string() })),
  'batch.ping': call(z.object({}), z.object({ pong: z.literal(true) })),
};

/** Every frame the server sends, by kind, in order. */
function recording(transport: Transport): { transport: Transport; frames: { t: string; count: number }[] } {
  const frames: { t: string; count: number }[] = [];
  return {
    frames,
    transport: {
      ...transport,
      send(frame) {
        if (typeof frame === 'string') {
          const parsed = JSON.parse(frame) as { t: string; items?: unknown[] };
          frames.push({ t: parsed.t, count: parsed.items?.length ?? 1 });
        }
        transport.send(frame);
      },
    },
  };
}

test('items pushed in one turn arrive in order, batched, and a call answered meanwhile does not overtake them', async () => {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const recorded = recording(serverSide);
  let sink: StreamSink<{ n: number; text: string }> | undefined;
  const handlers: Handlers<typeof contract> = {
    'batch.items': (_key, s) => {
      sink = s;
    },
    'batch.ping': () => {
      // Answered in the middle of a burst: the items pushed before it must reach the client first.
      for (let n = 0; n < 5; n++) sink!.push({ n: 1000 + n, text: 'before the answer' });
      return { pong: true };
    },
  };
  new RpcServer(contract, handlers, recorded.transport, 'memory', { batch: (flush) => process.nextTick(flush) });
  const client = new RpcClient(contract, clientSide);
  const got: number[] = [];
  let ended = false;
  client.subscribe('batch.items', {}, { onItem: (item) => got.push(item.n), onEnd: () => (ended = true) }, { credit: 100_000 });
  await new Promise((resolve) => setTimeout(resolve, 10));
  // A burst far over one frame's bound (each item ~1 KB).
  for (let n = 0; n < 2000; n++) sink!.push({ n, text: 'x'.repeat(1000) });
  let answeredAfter = -1;
  await client.call('batch.ping', {}).then(() => (answeredAfter = got.length));
  sink!.end();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(got, [...Array.from({ length: 2000 }, (_, n) => n), 1000, 1001, 1002, 1003, 1004]);
  assert.equal(answeredAfter, 2005, 'the answer came after every item pushed before it');
  assert.ok(ended);
  const itemFrames = recorded.frames.filter((f) => f.t === 'items' || f.t === 'item');
  assert.ok(itemFrames.length > 1 && itemFrames.length < 50, `2005 items in ${itemFrames.length} frames`);
  assert.ok(itemFrames.every((f) => f.count <= 300), 'no frame gathers much more than its bound');
  assert.equal(recorded.frames.at(-1)!.t, 'end');
});
