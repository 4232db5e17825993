// The Connections view's times: "expires in 59 min" and the device code's m:ss countdown, as the user reads them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countdown, relativeTime } from '../../src-renderer/features/connections/relativeTime';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

test('relative times pick the unit a person would say, in the future and the past', () => {
  assert.equal(relativeTime(NOW + 12_000, NOW), 'in 12 s');
  assert.equal(relativeTime(NOW + 59 * 60_000 + 40_000, NOW), 'in 1 h');
  assert.equal(relativeTime(NOW + 59_600, NOW), 'in 1 min');
  assert.equal(relativeTime(NOW + 59 * 60_000, NOW), 'in 59 min');
  assert.equal(relativeTime(NOW + 5 * 3_600_000, NOW), 'in 5 h');
  assert.equal(relativeTime(NOW + 3 * 86_400_000, NOW), 'in 3 d');
  assert.equal(relativeTime(NOW - 90_000, NOW), '2 min ago');
  assert.equal(relativeTime(NOW - 2 * 3_600_000, NOW), '2 h ago');
});

test('the countdown shows minutes and seconds left, rounding up, and stops at 0:00', () => {
  assert.equal(countdown(NOW + 600_000, NOW), '10:00');
  assert.equal(countdown(NOW + 65_500, NOW), '1:06');
  assert.equal(countdown(NOW + 9_000, NOW), '0:09');
  assert.equal(countdown(NOW - 5_000, NOW), '0:00');
});
