// liveListHandler: the one way the host serves a list that stays live. Changes are subscribed before the list is read,
// so a change made while the list is read (or while a slow list is on its way) arrives after the snapshot, in order;
// nothing stays subscribed after the stream ends or the list fails; a snapshot naming an id twice is refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { liveList, RpcError, type LiveListFrame } from '../../src-preload/contract';
import { createMemoryTransportPair, RpcClient, RpcServer, type Handlers } from '../../src-preload/rpc';
import { liveListHandler, type LiveListSource } from '../../src-preload/rpc/liveListHandler';
import { changingItems } from './changingItems';

const Item = z.object({ id: z.string(), group: z.string(), v: z.number() });
type Item = z.infer<typeof Item>;
const contract = { 'things.watch': liveList(z.object({ group: z.string().min(1, 'name a group') }), Item, (item) => item.id) };

/** A store of items whose changes fire synchronously, as the host's services do. */
function store(initial: Item[]) {
  const { items, changes, put, drop } = changingItems(initial);
  return {
    items,
    listeners: () => (changes as unknown as { listeners: Set<unknown> }).listeners.size,
    put,
    drop,
    source(list?: LiveListSource<{ group: string }, Item>['list']): LiveListSource<{ group: string }, Item> {
      return {
        list: list ?? (({ group }) => [...items.values()].filter((item) => item.group === group)),
        onDidChange: ({ group }, emit) =>
          changes.event((change) => {
            if (change.kind === 'remove' || change.item.group === group) emit(change);
          }),
      };
    },
  };
}

function serve(source: LiveListSource<{ group: string }, Item>) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const internal: unknown[] = [];
  const handlers: Handlers<typeof contract> = { 'things.watch': liveListHandler(contract['things.watch'], source) };
  new RpcServer(contract, handlers, serverSide, 'memory', { onInternalError: (_m, e) => internal.push(e) });
  const client = new RpcClient(contract, clientSide);
  const frames: LiveListFrame<Item>[] = [];
  let ended: RpcError | undefined | 'open' = 'open';
  const subscription = client.subscribe('things.watch', { group: 'a' }, { onItem: (f) => frames.push(f), onEnd: (e) => (ended = e) });
  return { client, frames, subscription, internal, ended: () => ended };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
const a1: Item = { id: '1', group: 'a', v: 1 };
const a2: Item = { id: '2', group: 'a', v: 1 };

test('the snapshot comes first, then each upsert and remove of the key\'s list, in order', async () => {
  const things = store([a1, { id: 'x', group: 'b', v: 1 }]);
  const { frames } = serve(things.source());
  await settle();
  things.put({ ...a1, v: 2 });
  things.put({ id: 'y', group: 'b', v: 1 });
  things.put(a2);
  things.drop('1');
  await settle();
  assert.deepEqual(frames, [
    { kind: 'snapshot', items: [a1] },
    { kind: 'upsert', item: { ...a1, v: 2 } },
    { kind: 'upsert', item: a2 },
    { kind: 'remove', id: '1' },
  ]);
});

test('a change made while the list is read is not lost: it follows the snapshot', async () => {
  const things = store([a1]);
  const { frames } = serve(
    things.source(() => {
      const snapshot = [...things.items.values()];
      things.put(a2); // between reading and sending: a list+subscribe pair read in the other order would lose it
      return snapshot;
    }),
  );
  await settle();
  assert.deepEqual(frames, [{ kind: 'snapshot', items: [a1] }, { kind: 'upsert', item: a2 }]);
});

test('changes made while a slow snapshot is on its way are sent after it, in the order they happened', async () => {
  const things = store([a1]);
  let release!: () => void;
  const { frames } = serve(
    things.source(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return [...things.items.values()];
    }),
  );
  await settle();
  things.put({ ...a1, v: 2 });
  things.put(a2);
  things.drop('2');
  await settle();
  assert.deepEqual(frames, [], 'nothing before the snapshot');
  release();
  await settle();
  assert.deepEqual(frames, [
    { kind: 'snapshot', items: [{ ...a1, v: 2 }] },
    { kind: 'upsert', item: { ...a1, v: 2 } },
    { kind: 'upsert', item: a2 },
    { kind: 'remove', id: '2' },
  ]);
});

test('a list that fails ends the stream with its typed error and leaves nothing subscribed', async () => {
  const things = store([]);
  const sync = serve(
    things.source(() => {
      throw new RpcError('NOT_FOUND', 'no group a');
    }),
  );
  await settle();
  assert.equal((sync.ended() as RpcError).code, 'NOT_FOUND');
  const slow = serve(things.source(() => Promise.reject(new RpcError('UNAVAILABLE', 'not yet'))));
  await settle();
  assert.equal((slow.ended() as RpcError).code, 'UNAVAILABLE');
  assert.equal(things.listeners(), 0);
});

test('unsubscribing ends the change subscription', async () => {
  const things = store([a1]);
  const { subscription } = serve(things.source());
  await settle();
  assert.equal(things.listeners(), 1);
  subscription.dispose();
  await settle();
  assert.equal(things.listeners(), 0);
});

test('a snapshot naming an id twice is refused as INTERNAL, with the id in the host log', async () => {
  const things = store([]);
  const { frames, ended, internal } = serve(things.source(() => [a1, { ...a1, v: 2 }]));
  await settle();
  assert.deepEqual(frames, []);
  assert.equal((ended() as RpcError).code, 'INTERNAL');
  assert.match(String(internal[0]), /two items with the id "1"/);
  assert.equal(things.listeners(), 0);
});

test('a bad key is INVALID_PARAMS and reads nothing', async () => {
  let listed = false;
  const things = store([]);
  const [clientSide, serverSide] = createMemoryTransportPair();
  new RpcServer(contract, { 'things.watch': liveListHandler(contract['things.watch'], things.source(() => ((listed = true), []))) }, serverSide, 'memory');
  const client = new RpcClient(contract, clientSide);
  const end = await new Promise<RpcError | undefined>((resolve) => client.subscribe('things.watch', { group: '' }, { onItem: () => undefined, onEnd: resolve }));
  assert.equal(end?.code, 'INVALID_PARAMS');
  assert.equal(listed, false);
});
