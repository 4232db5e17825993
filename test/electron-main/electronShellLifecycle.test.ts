// src-main/electron-main run for real, against the electron stand-in (electronStandIn/): the host in a utility
// process, the page's port, a crashed host, a second instance, quitting. One app process carries the tests in order
// (each builds on the state the one before left); a second instance is started for the single-instance test.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Contract } from '../../src-preload/contract';
import type { CallRes } from '../../src-preload/contract/define';
import { buildShell, descendantsOf, isAlive, makeHomes, startApp, type AppProcess, type ShellBuild } from './shellRun/shellHarness';

type HostInfo = CallRes<Contract, 'host.info'>;
type Session = CallRes<Contract, 'session.create'>;

describe('the Electron shell, run against the electron stand-in', { timeout: 90_000 }, () => {
  let shell: ShellBuild;
  let homes: ReturnType<typeof makeHomes>;
  let app: AppProcess;
  let workspace: string;
  let created: Session;

  before(async () => {
    shell = await buildShell();
    homes = makeHomes();
    workspace = mkdtempSync(join(homes.userHome, 'workspace-'));
    app = startApp(shell, homes.home, homes.userHome);
  });

  after(() => {
    app?.kill();
    shell?.dispose();
    homes?.dispose();
  });

  const utilityForks = () => app.records.filter((r) => r.kind === 'utility-fork');

  test('starts the host in a utility process, and the window page gets a port that answers session.list', async () => {
    await app.waitFor('the window', async () => (await app.state()).windows.length === 1);
    const sessions = await app.command({ cmd: 'call', method: 'session.list', params: {} });
    assert.deepEqual(sessions, []);
    const [fork] = utilityForks();
    assert.ok(fork?.kind === 'utility-fork' && fork.modulePath.endsWith(join('electron', 'hostProcess.js')), JSON.stringify(fork));
    assert.equal(fork.serviceName, 'Omniscient Shell host');
    const info = await app.command<HostInfo>({ cmd: 'call', method: 'host.info', params: {} });
    assert.equal(info.pid, fork.pid, 'the page talks to the host in the utility process');
    assert.equal(info.home, homes.home);
    const [window] = (await app.state()).windows;
    assert.equal(window.portsReceived, 1);
    assert.ok(window.calls.includes('show'), 'the window is shown once ready to show');
    created = await app.command<Session>({ cmd: 'call', method: 'session.create', params: { workspace, name: 'before the crash' } });
  });

  test('a crashed host is restarted and the page reconnects on the fresh port', async () => {
    const [first] = utilityForks();
    assert.ok(first?.kind === 'utility-fork');
    process.kill(first.pid, 'SIGKILL');
    const exit = await app.waitFor('the host exit', () => app.records.find((r) => r.kind === 'utility-exit' && r.pid === first.pid));
    // Electron reports the exit code from waitpid; a process ended by SIGKILL reports 9 here.
    assert.ok(exit.kind === 'utility-exit' && exit.code === 9, JSON.stringify(exit));
    const second = await app.waitFor('a new host', () => utilityForks()[1]);
    assert.notEqual(second.pid, first.pid);
    await app.waitFor('the page on its second port', async () => {
      const [window] = (await app.state()).windows;
      return window.portsReceived === 2 && window.connected;
    });
    const info = await app.command<HostInfo>({ cmd: 'call', method: 'host.info', params: {} });
    assert.equal(info.pid, second.pid);
    const sessions = await app.command<Session[]>({ cmd: 'call', method: 'session.list', params: {} });
    assert.deepEqual(
      sessions.map((s) => s.id),
      [created.id],
      'the session made before the crash is still there',
    );
    assert.match(app.log(), /\[main\] the host process exited with code 9/);
  });

  test('a second instance on the same profile focuses the first window and quits without a host', async () => {
    await app.command({ cmd: 'minimize' });
    const second = startApp(shell, homes.home, homes.userHome);
    try {
      const exit = await second.exited;
      assert.deepEqual(exit, { code: 0, signal: null }, second.log());
      assert.deepEqual(
        second.records.filter((r) => r.kind === 'utility-fork'),
        [],
        'the second instance starts no host',
      );
      await app.waitFor('the first window focused', async () => (await app.state()).windows[0].calls.includes('focus'));
      const [window] = (await app.state()).windows;
      assert.deepEqual(window.calls.slice(-2), ['restore', 'focus'], 'a minimized window is restored, then focused');
      assert.ok(app.records.some((r) => r.kind === 'second-instance'));
      assert.equal(utilityForks().length, 2, 'the first instance kept its host');
    } finally {
      second.kill();
    }
  });

  test('quitting stops the host cleanly and leaves no process behind', async () => {
    const hostPid = utilityForks()[1].pid;
    // A terminal gives the host a child of its own (a shell in a PTY, in a session of its own).
    await app.command({ cmd: 'call', method: 'terminal.open', params: { sessionId: created.id, cols: 80, rows: 24 } });
    const started = descendantsOf(app.pid);
    assert.ok(started.includes(hostPid), `the host is one of the app's processes: ${started.join(', ')}`);
    assert.ok(started.length >= 2, `the host has a terminal process: ${started.join(', ')}`);

    await app.command({ cmd: 'quit' });
    const exit = await app.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, app.log());
    const hostExit = app.records.findIndex((r) => r.kind === 'utility-exit' && r.pid === hostPid);
    const quit = app.records.findIndex((r) => r.kind === 'app-quit');
    assert.ok(hostExit >= 0 && hostExit < quit, `the host exited before the app did: ${JSON.stringify(app.records)}`);
    assert.deepEqual(app.records[hostExit], { kind: 'utility-exit', pid: hostPid, code: 0 }, 'the host shut down by itself');
    const deadline = Date.now() + 5_000;
    while (started.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(started.filter(isAlive), [], 'every process the app started is gone');
  });
});
