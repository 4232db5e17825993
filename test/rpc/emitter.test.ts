import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../../src-preload/rpc/disposable';

test('an emitter delivers each value to the listeners it had when firing began, whatever they add or remove', () => {
  const emitter = new Emitter<number>();
  const heard: string[] = [];
  emitter.fire(0); // nobody listening: nothing happens
  const late = (value: number): void => void heard.push(`late ${value}`);
  const first = emitter.event((value) => {
    heard.push(`first ${value}`);
    if (value === 1) emitter.event(late); // added while firing: hears the next value, not this one
  });
  emitter.fire(1);
  assert.deepEqual(heard, ['first 1']);
  heard.length = 0;
  // Two listeners now; the first one removing itself does not keep the other from hearing this value.
  const second = emitter.event((value) => {
    heard.push(`second ${value}`);
    first.dispose();
  });
  emitter.fire(2);
  assert.deepEqual(heard, ['first 2', 'late 2', 'second 2']);
  heard.length = 0;
  emitter.fire(3);
  assert.deepEqual(heard, ['late 3', 'second 3']);
  second.dispose();
  emitter.dispose();
  emitter.fire(4);
  assert.deepEqual(heard, ['late 3', 'second 3']);
});
