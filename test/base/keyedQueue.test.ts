// KeyedQueue: one task at a time per key, in the order asked; a failed task does not stop the next; other keys do
// not wait; settled() waits for everything queued.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeyedQueue } from '../../src-main/node/base/keyedQueue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test('tasks of one key run one at a time in order, a failure included; another key runs beside them', async () => {
  const queue = new KeyedQueue();
  const log: string[] = [];
  const task = (name: string, fail = false) => async () => {
    log.push(`${name} start`);
    await tick();
    log.push(`${name} end`);
    if (fail) throw new Error(`${name} failed`);
    return name;
  };
  const a1 = queue.run('a', task('a1', true));
  const a2 = queue.run('a', task('a2'));
  const b1 = queue.run('b', task('b1'));
  await assert.rejects(a1, /a1 failed/);
  assert.equal(await a2, 'a2');
  assert.equal(await b1, 'b1');
  assert.deepEqual(log.filter((line) => line.startsWith('a')), ['a1 start', 'a1 end', 'a2 start', 'a2 end']);
  assert.ok(log.indexOf('b1 start') < log.indexOf('a1 end'), 'b did not wait for a');
});

test('settled() resolves once every task queued so far has settled, failed or not', async () => {
  const queue = new KeyedQueue();
  let done = 0;
  void queue.run('a', async () => {
    await tick();
    done++;
    throw new Error('no');
  }).catch(() => undefined);
  void queue.run('b', async () => {
    await tick();
    await tick();
    done++;
  });
  await queue.settled();
  assert.equal(done, 2);
});
