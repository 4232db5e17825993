// src-main/electron-main run for real, against the electron stand-in (electronStandIn/): another host (an
// `omni serve`) already runs on the home. The app says so and quits, without restarting its host.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lockHome } from '../../src-main/node/homeLock';
import { stillAlive, useShellApps } from './shellRun/shellApps';

const { homes, start } = useShellApps();

test('another host on the same home: the app says so and quits, without restarting the host', { timeout: 60_000 }, async (t) => {
  const { home, userHome } = homes();
  // The test process holds the home's lock, as a running `omni serve` on it would.
  const lock = await lockHome(home);
  t.after(() => lock.release());
  const app = start(home, userHome);
  assert.deepEqual(await app.exited, { code: 0, signal: null }, app.log());
  const dialogs = app.records.filter((r) => r.kind === 'dialog');
  assert.equal(dialogs.length, 1, app.log());
  assert.ok(dialogs[0].kind === 'dialog');
  assert.equal(dialogs[0].title, 'Omniscient Shell is already running on this home');
  assert.match(dialogs[0].content, new RegExp(`pid ${process.pid}\\b`), 'the message names the other host');
  const forks = app.records.filter((r) => r.kind === 'utility-fork');
  assert.equal(forks.length, 1, 'the host is not restarted');
  assert.deepEqual(await stillAlive(forks.map((r) => (r.kind === 'utility-fork' ? r.pid : 0))), []);
});
