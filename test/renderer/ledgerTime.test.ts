// The ledger's times: "2 min ago" at a glance, the exact local time and UTC for the tooltip and the details.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTime, fullTime, timeAgo } from '../../src-renderer/features/ledger/ledgerTime';

const NOW = new Date(2026, 10, 27, 15, 30, 0).getTime(); // local time, as the view shows it

test('recent entries read as an age a person would say', () => {
  assert.equal(timeAgo(NOW - 3_000, NOW), 'just now');
  assert.equal(timeAgo(NOW + 5_000, NOW), 'just now'); // another machine's clock a little ahead
  assert.equal(timeAgo(NOW - 40_000, NOW), '40 s ago');
  assert.equal(timeAgo(NOW - 2 * 60_000 - 5_000, NOW), '2 min ago');
  assert.equal(timeAgo(NOW - 59 * 60_000, NOW), '59 min ago');
  assert.equal(timeAgo(NOW - 3 * 3_600_000, NOW), '3 h ago');
});

test('older entries read as today/yesterday with the clock, then days, then the date', () => {
  const morning = new Date(2026, 10, 27, 1, 5, 0).getTime();
  assert.equal(timeAgo(morning, NOW), 'today 01:05');
  assert.equal(timeAgo(new Date(2026, 10, 26, 14, 3, 0).getTime(), NOW), 'yesterday 14:03');
  assert.equal(timeAgo(new Date(2026, 10, 23, 9, 0, 0).getTime(), NOW), '4 d ago');
  assert.equal(timeAgo(new Date(2026, 9, 2, 9, 0, 0).getTime(), NOW), '2026-10-02');
});

test('the exact time is local to the second, with UTC beside it', () => {
  const ts = new Date(2026, 10, 23, 10, 58, 3).getTime();
  assert.equal(formatTime(ts), '2026-11-23 10:58:03');
  assert.equal(fullTime(ts), `2026-11-23 10:58:03 (${new Date(ts).toISOString()})`);
});
