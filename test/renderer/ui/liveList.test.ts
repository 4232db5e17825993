// followLiveList (what useLiveList runs on each connection) against a real RpcServer serving a liveListHandler: the
// merged list, removes of ids it does not hold, a stream cut off with OVERFLOW opened again with a fresh snapshot, a
// new connection starting from a fresh snapshot, and an error that ends following reported with the items kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { liveList, RpcError } from '../../../src-preload/contract';
import { createMemoryTransportPair, RpcClient, RpcServer, type Handlers, type StreamSink } from '../../../src-preload/rpc';
import { liveListHandler } from '../../../src-preload/rpc/liveListHandler';
import { changingItems } from '../../rpc/changingItems';
import { applyLiveFrame, followLiveList, type LiveListState } from '../../../src-renderer/ui/liveList';

const Item = z.object({ id: z.string(), v: z.number() });
type Item = z.infer<typeof Item>;
const contract = { 'things.watch': liveList(z.object({}), Item, (item) => item.id) };
const def = contract['things.watch'];

function host(initial: Item[]) {
  const { items, changes, put, drop } = changingItems(initial);
  const serveOne = liveListHandler(def, { list: () => [...items.values()], onDidChange: (_key, emit) => changes.event(emit) });
  let cutNext = false;
  const handlers: Handlers<typeof contract> = {
    'things.watch': (key, sink, ctx) => {
      const served = serveOne(key, sink, ctx);
      if (cutNext) {
        cutNext = false;
        // As the server does when this page falls too far behind.
        (sink as StreamSink<unknown>).end(new RpcError('OVERFLOW', 'fell behind; subscribe again'));
      }
      return served;
    },
  };
  return {
    items,
    put,
    drop,
    cutNextSubscription() {
      cutNext = true;
    },
    connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      new RpcServer(contract, handlers, serverSide, 'memory');
      return { client: new RpcClient(contract, clientSide), close: () => clientSide.close('gone') };
    },
  };
}

function follow(client: RpcClient<typeof contract>) {
  const states: LiveListState<Item>[] = [];
  const follower = followLiveList(client, 'things.watch', def, {}, (state) => states.push(state));
  return { follower, states, last: () => states.at(-1)! };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
const one: Item = { id: '1', v: 1 };
const two: Item = { id: '2', v: 1 };

test('the list is the snapshot with each change merged in: in place, new ones last, removed ones gone', async () => {
  const things = host([one, two]);
  const { last } = follow(things.connect().client);
  await settle();
  assert.deepEqual(last(), { items: [one, two], loaded: true, error: null });
  things.put({ ...one, v: 2 });
  things.put({ id: '3', v: 1 });
  things.drop('2');
  await settle();
  assert.deepEqual(last().items, [{ ...one, v: 2 }, { id: '3', v: 1 }]);
});

test('a remove of an id the list does not hold changes nothing, not even the list\'s identity', () => {
  const items = [one];
  assert.equal(applyLiveFrame(items, { kind: 'remove', id: 'nope' }, (i) => i.id), items);
  assert.deepEqual(applyLiveFrame(items, { kind: 'upsert', item: two }, (i) => i.id), [one, two]);
});

test('a stream cut off with OVERFLOW (this page fell behind) is opened again, from a fresh snapshot, and no error shows', async () => {
  const things = host([one]);
  const { client } = things.connect();
  things.cutNextSubscription();
  const { last } = follow(client);
  await settle();
  things.put(two);
  await settle();
  assert.deepEqual(last(), { items: [one, two], loaded: true, error: null });
});

test('a new connection starts from a fresh snapshot: what changed while the old one was down shows', async () => {
  const things = host([one, two]);
  const first = things.connect();
  const old = follow(first.client);
  await settle();
  first.close();
  things.drop('1');
  things.put({ id: '3', v: 1 });
  await settle();
  assert.deepEqual(old.last().items, [one, two], 'the closed connection heard nothing and says no error');
  assert.equal(old.last().error, null);
  const fresh = follow(things.connect().client);
  await settle();
  assert.deepEqual(fresh.last().items, [two, { id: '3', v: 1 }]);
});

test('refresh() asks for a fresh snapshot', async () => {
  const things = host([one]);
  const { follower, last } = follow(things.connect().client);
  await settle();
  things.items.set('2', two); // changed without an event (another process, say)
  follower.refresh();
  await settle();
  assert.deepEqual(last().items, [one, two]);
});

test('an error that ends the stream is reported and the items are kept', async () => {
  const failing = { 'things.watch': def };
  const [clientSide, serverSide] = createMemoryTransportPair();
  const handlers: Handlers<typeof failing> = {
    'things.watch': (_key, sink) => {
      sink.push({ kind: 'snapshot', items: [one] });
      queueMicrotask(() => sink.end(new RpcError('NOT_FOUND', 'the list went away')));
    },
  };
  new RpcServer(failing, handlers, serverSide, 'memory');
  const { last } = follow(new RpcClient(failing, clientSide));
  await settle();
  assert.deepEqual(last().items, [one]);
  assert.equal(last().error?.code, 'NOT_FOUND');
});
