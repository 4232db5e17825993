import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKLOG_LIMIT, OVERFLOW_EVENT } from '../../src-main/node/exec/backlogStore';
import { OutputWatcher } from '../../src-main/node/exec/outputWatcher';
import { execFixture, pollAll, SESSION, spawnRun, waitEnded } from './execFixture';

test('a match cut by chunk boundaries fires exactly once, wherever the cuts fall', () => {
  const text = 'boot... server ready on :8080\nserver ready on :8081\n';
  for (let size = 1; size <= text.length; size++) {
    const watcher = new OutputWatcher([{ regex: 'ready on :\\d+', event: 'up' }]);
    const found = [];
    for (let at = 0; at < text.length; at += size) found.push(...watcher.feed('stdout', text.slice(at, at + size)));
    assert.deepEqual(
      found.map((m) => m.offset),
      [15, 37],
      `chunks of ${size}: each match once, at its place in the stream`,
    );
  }
});

test('once and scope', () => {
  const watcher = new OutputWatcher([
    { regex: 'tick', event: 'first-tick', once: true },
    { regex: 'boom', event: 'err-boom', scope: 'stderr' },
    { regex: 'boom', event: 'any-boom' },
  ]);
  const events = [
    ...watcher.feed('stdout', 'tick tick boom'),
    ...watcher.feed('stderr', 'boom'),
    ...watcher.feed('stdout', 'tick'),
  ].map((m) => `${m.event}@${m.stream}`);
  assert.deepEqual(events, ['first-tick@stdout', 'any-boom@stdout', 'err-boom@stderr', 'any-boom@stderr']);
});

test('watchers over a real run: event items in the stream, straddling match once, a backlog message per match', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const runId = await spawnRun(f, {
    command: "printf 'server rea'; sleep 0.5; printf 'dy\\n'; echo 'server ready again'; echo 'warn: disk' >&2; echo 'warn: stdout'",
    watch: [
      { regex: 'server ready', event: 'ready' },
      { regex: 'warn: \\w+', event: 'warning', scope: 'stderr', once: true },
    ],
  });
  await waitEnded(f, runId);
  const { items } = await pollAll(f, runId);
  assert.equal(items[0].data, 'server rea', 'the first read ended inside the match');
  const events = items.filter((item) => item.kind === 'event' && item.data !== 'exit');
  assert.deepEqual(
    events.map((item) => [item.data, item.detail?.match, item.detail?.watcher, item.detail?.stream]),
    [
      ['ready', 'server ready', 0, 'stdout'],
      ['ready', 'server ready', 0, 'stdout'],
      ['warning', 'warn: disk', 1, 'stderr'],
    ],
  );
  // Each event item comes right after the output that completed its match.
  const firstEvent = items.indexOf(events[0]);
  assert.ok(items[firstEvent - 1].data.startsWith('dy\n'), 'the first match event follows the output that completed it');
  const backlog = f.exec.takeBacklog(SESSION);
  assert.deepEqual(backlog.map((m) => [m.event, m.run_id, m.delivered]), [
    ['ready', runId, true],
    ['ready', runId, true],
    ['warning', runId, true],
  ]);
  assert.match(backlog[2].text, /warning: watcher 1 matched "warn: disk" in the stderr of run_/);
  assert.deepEqual(f.exec.takeBacklog(SESSION), [], 'taken once');
  assert.equal(f.exec.backlog(SESSION).length, 3, 'still listed, as delivered');
});

test('the backlog is bounded: past the limit, matches are counted on one overflow message (and all stay in the run items)', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const total = BACKLOG_LIMIT + 50;
  const runId = await spawnRun(f, { command: `for i in $(seq 1 ${total}); do echo "hit $i"; done`, watch: [{ regex: 'hit \\d+\\n', event: 'hit' }] });
  await waitEnded(f, runId);
  const { items } = await pollAll(f, runId);
  assert.equal(items.filter((item) => item.kind === 'event' && item.data === 'hit').length, total, 'every match is an event item');
  const backlog = f.exec.backlog(SESSION);
  assert.equal(backlog.length, BACKLOG_LIMIT + 1);
  assert.deepEqual(backlog.slice(0, BACKLOG_LIMIT).map((m) => m.event), Array(BACKLOG_LIMIT).fill('hit'));
  const overflow = backlog[BACKLOG_LIMIT];
  assert.equal(overflow.event, OVERFLOW_EVENT);
  assert.match(overflow.text, /^50 more watcher events were not queued: the backlog holds 100 undelivered messages/);
  // Once taken, there is room again.
  assert.equal(f.exec.takeBacklog(SESSION).length, BACKLOG_LIMIT + 1);
  const again = await spawnRun(f, { command: 'echo "hit 1"', watch: [{ regex: 'hit \\d+', event: 'hit' }] });
  await waitEnded(f, again);
  assert.deepEqual(f.exec.takeBacklog(SESSION).map((m) => m.event), ['hit']);
});

test('delivered messages are kept for the history up to a bound', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const { BacklogStore, DELIVERED_KEPT } = await import('../../src-main/node/exec/backlogStore');
  const store = new BacklogStore(f.db);
  for (let round = 0; round < 7; round++) {
    for (let i = 0; i < BACKLOG_LIMIT; i++) store.enqueue(SESSION, 'run_benchpoll000000', 'hit', `hit ${round}.${i}`, i);
    assert.equal(store.take(SESSION).length, BACKLOG_LIMIT);
  }
  const kept = store.list(SESSION);
  assert.equal(kept.length, DELIVERED_KEPT);
  assert.equal(kept.at(-1)!.text, `hit 6.${BACKLOG_LIMIT - 1}`, 'the newest are kept');
  assert.ok(kept.every((m) => m.delivered));
});
