import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CreditWindow } from '../../src-preload/rpc';

function setup(window = 100, low = 10, maxQueued = 1000) {
  const delivered: string[] = [];
  const events: string[] = [];
  const credit = new CreditWindow<string>(window, low, maxQueued, (item) => delivered.push(item), () => events.push('pause'), () => events.push('resume'));
  return { credit, delivered, events };
}

test('pauses the producer once the whole window is outstanding and resumes at the low watermark', () => {
  const { credit, delivered, events } = setup();
  credit.push('a'.repeat(60), 60);
  assert.deepEqual(events, []);
  credit.push('b'.repeat(50), 50);
  assert.deepEqual(events, ['pause'], 'pause at 110 outstanding of a 100 window');
  credit.grant(50);
  assert.deepEqual(events, ['pause'], 'still 60 outstanding, above low water');
  credit.grant(55);
  assert.deepEqual(events, ['pause', 'resume']);
  assert.equal(delivered.length, 2);
});

test('queues what is pushed while paused, in order, and delivers it as credit returns', () => {
  const { credit, delivered } = setup();
  credit.push('1', 100);
  credit.push('2', 10);
  credit.push('3', 10);
  assert.deepEqual(delivered, ['1']);
  credit.grant(100);
  assert.deepEqual(delivered, ['1', '2', '3']);
});

test('reports overflow when a producer ignores pause beyond the queue limit', () => {
  const { credit } = setup(10, 1, 50);
  credit.push('x', 10);
  assert.equal(credit.push('y', 30), true);
  assert.equal(credit.push('z', 30), false);
});
