import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { call, RpcError, stream } from '../../src-preload/contract';
import { createMemoryTransportPair, RpcClient, RpcServer, type Handlers } from '../../src-preload/rpc';

const testContract = {
  'math.add': call(z.object({ a: z.number(), b: z.number() }), z.object({ sum: z.number() })),
  'math.fail': call(z.object({ kind: z.enum(['typed', 'crash']) }), z.object({})),
  'math.lie': call(z.object({}), z.object({ n: z.number() })),
  'count.up': stream(z.object({ to: z.number().int() }), z.number()),
};

const handlers: Handlers<typeof testContract> = {
  'math.add': ({ a, b }) => ({ sum: a + b }),
  'math.fail': ({ kind }) => {
    if (kind === 'typed') throw new RpcError('NOT_FOUND', 'nothing here');
    throw new Error('secret internal detail');
  },
  'math.lie': () => ({ n: 'not a number' }) as unknown as { n: number },
  'count.up': ({ to }, sink) => {
    for (let i = 1; i <= to; i++) sink.push(i);
    sink.end();
  },
};

function connect() {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const internal: unknown[] = [];
  const server = new RpcServer(testContract, handlers, serverSide, 'memory', { onInternalError: (_m, e) => internal.push(e) });
  const client = new RpcClient(testContract, clientSide);
  const raw: unknown[] = [];
  clientSide.onMessage((frame) => raw.push(JSON.parse(String(frame))));
  return { client, server, clientSide, raw, internal };
}

test('a typed call round-trips through the contract', async () => {
  const { client } = connect();
  assert.deepEqual(await client.call('math.add', { a: 2, b: 3 }), { sum: 5 });
});

test('typed errors keep their code; unexpected ones become INTERNAL without leaking details', async () => {
  const { client, internal } = connect();
  await assert.rejects(client.call('math.fail', { kind: 'typed' }), { code: 'NOT_FOUND', message: 'nothing here' });
  await assert.rejects(client.call('math.fail', { kind: 'crash' }), (error: RpcError) => {
    assert.equal(error.code, 'INTERNAL');
    assert.doesNotMatch(error.message, /secret internal detail/);
    return true;
  });
  assert.equal(internal.length, 1);
});

test('a handler result outside the contract is refused as INTERNAL', async () => {
  const { client } = connect();
  await assert.rejects(client.call('math.lie', {}), { code: 'INTERNAL' });
});

test('wrong payload types name the field that was wrong', async () => {
  const { client } = connect();
  await assert.rejects(client.call('math.add', { a: 'two', b: 3 } as unknown as { a: number; b: number }), (error: RpcError) => {
    assert.equal(error.code, 'INVALID_PARAMS');
    assert.equal(error.issues?.[0]?.path, 'a');
    return true;
  });
});

test('streams deliver every item in order, then end', async () => {
  const { client } = connect();
  const items: number[] = [];
  await new Promise<void>((resolve, reject) => {
    client.subscribe('count.up', { to: 5000 }, { onItem: (n) => items.push(n), onEnd: (e) => (e ? reject(e) : resolve()) }, { credit: 100 });
  });
  assert.equal(items.length, 5000);
  assert.ok(items.every((n, i) => n === i + 1));
});

test('malformed frames get typed errors and the connection keeps serving', async () => {
  const { client, clientSide, raw } = connect();
  const bad: unknown[] = [
    'not json {',
    JSON.stringify({ t: 'call' }),
    JSON.stringify({ t: 'call', id: 7, method: 'no.such', params: {} }),
    JSON.stringify({ t: 'call', id: 8, method: 'constructor', params: {} }),
    JSON.stringify({ t: 'call', id: 9, method: '__proto__', params: {} }),
    JSON.stringify({ t: 'sub', id: 10, stream: 'math.add', key: {}, credit: 10 }),
    JSON.stringify({ t: 'sub', id: 11, stream: 'count.up', key: {}, credit: -1 }),
    JSON.stringify([1, 2, 3]),
    JSON.stringify(null),
    'x'.repeat(5 * 1024 * 1024),
  ];
  for (const frame of bad) clientSide.send(frame as string);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const codes = raw.map((f) => (f as { error?: { code: string } }).error?.code);
  assert.deepEqual(codes, [
    'BAD_FRAME',
    'BAD_FRAME',
    'UNKNOWN_METHOD',
    'UNKNOWN_METHOD',
    'UNKNOWN_METHOD',
    'UNKNOWN_STREAM',
    'BAD_FRAME',
    'BAD_FRAME',
    'BAD_FRAME',
    'FRAME_TOO_LARGE',
  ]);
  assert.deepEqual(await client.call('math.add', { a: 1, b: 1 }), { sum: 2 });
});

test('closing the connection rejects pending calls with CLOSED', async () => {
  const { client, clientSide } = connect();
  const pending = client.call('math.add', { a: 1, b: 2 });
  clientSide.close('host went away');
  await assert.rejects(pending, { code: 'CLOSED' });
  await assert.rejects(client.call('math.add', { a: 1, b: 2 }), { code: 'CLOSED' });
});
