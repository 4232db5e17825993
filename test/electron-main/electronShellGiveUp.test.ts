// src-main/electron-main run for real, against the electron stand-in (electronStandIn/): a host that fails at every
// start is restarted with backoff (250 ms doubling: ~8 s of waiting in all), then given up on with its own error
// shown, and the app still quits cleanly.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { stillAlive, useShellApps } from './shellRun/shellApps';
import { descendantsOf } from './shellRun/shellHarness';

const { homes, start } = useShellApps();

test('a host that fails at every start is restarted with backoff, then given up on with its error shown', { timeout: 90_000 }, async () => {
  const { home, userHome } = homes();
  // The database's folder is a file: the host cannot open its database, reports why, and exits.
  writeFileSync(join(home, 'memory'), 'not a folder');
  const app = start(home, userHome);
  const dialog = await app.waitFor('the give-up dialog', () => app.records.find((r) => r.kind === 'dialog'), 60_000);
  assert.ok(dialog.kind === 'dialog');
  assert.equal(dialog.title, 'Omniscient Shell: the host keeps failing');
  assert.match(dialog.content, /memory/, `the host's own error is shown: ${dialog.content}`);
  const forks = app.records.filter((r) => r.kind === 'utility-fork');
  const exits = app.records.filter((r) => r.kind === 'utility-exit');
  // MAX_CRASHES (5) restarts after the first start, then no more.
  assert.equal(forks.length, 6, app.log());
  assert.ok(exits.every((r) => r.kind === 'utility-exit' && r.code === 1), JSON.stringify(exits));
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(app.records.filter((r) => r.kind === 'utility-fork').length, 6, 'no restart after giving up');
  // The window stays (it shows that the host is gone); quitting still works and leaves nothing behind.
  const started = descendantsOf(app.pid);
  await app.command({ cmd: 'quit' });
  assert.deepEqual(await app.exited, { code: 0, signal: null });
  assert.deepEqual(await stillAlive(started), []);
});
