// src-main/electron-main run for real, against the electron stand-in (electronStandIn/): another host (an
// `omni serve`) already runs on the home. The app says so and quits, without restarting its host.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { lockHome } from '../../src-main/node/homeLock';
import { buildShell, isAlive, makeHomes, startApp, type AppProcess, type ShellBuild } from './shellRun/shellHarness';

let shell: ShellBuild;
const cleanups: Array<() => void> = [];

before(async () => {
  shell = await buildShell();
});

after(() => {
  cleanups.forEach((cleanup) => cleanup());
  shell?.dispose();
});

function homes(): ReturnType<typeof makeHomes> {
  const made = makeHomes();
  cleanups.push(() => made.dispose());
  return made;
}

function start(home: string, userHome: string): AppProcess {
  const app = startApp(shell, home, userHome);
  cleanups.push(() => app.kill());
  return app;
}

async function stillAlive(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + 5_000;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter(isAlive);
}

test('another host on the same home: the app says so and quits, without restarting the host', { timeout: 60_000 }, async () => {
  const { home, userHome } = homes();
  // The test process holds the home's lock, as a running `omni serve` on it would.
  const lock = await lockHome(home);
  cleanups.push(() => lock.release());
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
