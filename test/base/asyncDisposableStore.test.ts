import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AsyncDisposableStore } from '../../src-main/node/base/asyncDisposableStore';

test('parts stop newest first, each awaited before the next, once however often dispose is called', async () => {
  const order: string[] = [];
  const store = new AsyncDisposableStore(() => assert.fail('nothing fails here'));
  store.add('database', { dispose: () => void order.push('database') });
  store.add('exec', {
    async dispose() {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('exec');
    },
  });
  store.add('consent', { dispose: () => void order.push('consent') });
  await Promise.all([store.dispose(), store.dispose()]);
  await store.dispose();
  assert.deepEqual(order, ['consent', 'exec', 'database']);
});

test('a part that fails to stop is reported by name and the others still stop', async () => {
  const order: string[] = [];
  const failures: [string, unknown][] = [];
  const store = new AsyncDisposableStore((name, error) => failures.push([name, error]));
  store.add('database', { dispose: () => void order.push('database') });
  store.add('harness', {
    dispose: () => {
      throw new Error('pty gone');
    },
  });
  store.add('goal', { dispose: () => Promise.reject(new Error('halt failed')) });
  await store.dispose();
  assert.deepEqual(order, ['database']);
  assert.deepEqual(failures.map(([name, error]) => [name, (error as Error).message]), [['goal', 'halt failed'], ['harness', 'pty gone']]);
});

test('adding to a disposed store is refused: nothing is left without an owner', async () => {
  const store = new AsyncDisposableStore(() => {});
  await store.dispose();
  assert.throws(() => store.add('late', { dispose: () => {} }), /cannot add "late": the store is already disposed/);
});
