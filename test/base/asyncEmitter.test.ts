import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AsyncEmitter } from '../../src-main/node/base/asyncEmitter';

test('fire resolves once every listener has finished its work', async () => {
  const emitter = new AsyncEmitter<string>();
  const done: string[] = [];
  emitter.event(async (id) => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    done.push(`terminals of ${id}`);
  });
  emitter.event((id) => void done.push(`runs of ${id}`));
  await emitter.fire('ses_1');
  assert.deepEqual(done.sort(), ['runs of ses_1', 'terminals of ses_1']);
});

test('a failing listener does not stop the others; its error reaches the firer after all have settled', async () => {
  const emitter = new AsyncEmitter<string>();
  let slowDone = false;
  emitter.event(() => Promise.reject(new Error('kill failed')));
  emitter.event(async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    slowDone = true;
  });
  await assert.rejects(emitter.fire('ses_1'), /kill failed/);
  assert.equal(slowDone, true);
});

test('a disposed listener hears nothing more', async () => {
  const emitter = new AsyncEmitter<number>();
  const heard: number[] = [];
  const listener = emitter.event((n) => void heard.push(n));
  await emitter.fire(1);
  listener.dispose();
  await emitter.fire(2);
  assert.deepEqual(heard, [1]);
});
