import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DisposableStore, toDisposable } from '../../src-preload/rpc/disposable';

test('a store disposes every item, newest first, even when some throw, and then reports what failed', () => {
  const order: string[] = [];
  const store = new DisposableStore();
  store.add(toDisposable(() => order.push('socket')));
  store.add(toDisposable(() => {
    throw new Error('pty already gone');
  }));
  store.add(toDisposable(() => order.push('timer')));
  assert.throws(() => store.dispose(), /pty already gone/);
  assert.deepEqual(order, ['timer', 'socket']);
  store.dispose(); // once only: nothing is disposed or thrown twice
});

test('several failures are reported together', () => {
  const store = new DisposableStore();
  for (const what of ['a', 'b']) {
    store.add(toDisposable(() => {
      throw new Error(`${what} failed`);
    }));
  }
  assert.throws(() => store.dispose(), (error: unknown) => error instanceof AggregateError && error.errors.map((e: Error) => e.message).join() === 'b failed,a failed');
});
