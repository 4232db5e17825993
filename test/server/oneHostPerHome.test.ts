// One host per app home (src-main/node/homeLock.ts): real `omni serve` processes on real homes. A second host on a
// home in use stops with a message naming the first and changes nothing; a host killed with SIGKILL does not block
// the next; different homes run side by side; a reused pid is not taken for the dead host.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { contract, type Contract, type LedgerEntry } from '../../src-preload/contract';
import { RpcClient } from '../../src-preload/rpc';
import { HomeInUseError, homeLockPath, lockHome } from '../../src-main/node/homeLock';
import { createHostServices } from '../../src-main/node/hostServices';
import { WebSocketTransport } from '../../src-main/server/webSocketTransport';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { openSocket, runHostProcess, startHostProcess, type HostProcess } from './connect';

async function clientOf(host: HostProcess): Promise<RpcClient<Contract>> {
  return new RpcClient(contract, new WebSocketTransport(await openSocket(host.port, `?token=${host.token}`)));
}

/** The pids of every host that recorded a start in the home's ledger, oldest first. */
async function hostStarts(client: RpcClient<Contract>): Promise<number[]> {
  const entries: LedgerEntry[] = await client.call('ledger.list', { limit: 500 });
  return entries
    .filter((entry) => entry.type === 'host.start')
    .sort((a, b) => a.seq - b.seq)
    .map((entry) => (entry.payload as { pid: number }).pid);
}

/** Every file of the home with its content, except the database files the running host itself may write to. */
function snapshot(home: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(home, path), name.startsWith('sessions.db') ? '(database)' : readFileSync(path, 'utf8'));
    }
  };
  walk(home);
  return files;
}

const holderRecord = (pid: number, pidStart: string | undefined, host = hostname()) =>
  JSON.stringify({ pid, host, ...(pidStart ? { pid_start: pidStart } : {}), acquired_at: new Date().toISOString(), token: 'f'.repeat(24) });

/** Field 22 of /proc/<pid>/stat: the start time that tells a process from a later one with the same pid. */
function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

test('a second omni serve on a home in use exits 5 naming the running host, changes nothing, and the first keeps working', { timeout: 180_000 }, async (t) => {
  const home = tempDir('one-host');
  const workspace = tempDir('ws');
  const first = await startHostProcess(home.path);
  t.after(async () => {
    await first.stop();
    home.cleanup();
    workspace.cleanup();
  });
  const before = snapshot(home.path);

  const second = await runHostProcess(home.path);
  assert.equal(second.code, 5, second.stderr);
  assert.equal(
    second.stderr.trim(),
    `omni: Another Omniscient Shell host (pid ${first.pid}, http://127.0.0.1:${first.port}/) is using ${home.path}. ` +
      'Open that one, or start this one on another home (--home OTHER_DIR, or OMNI_HOME=OTHER_DIR).',
  );
  assert.doesNotMatch(second.stdout, /ready at/);
  assert.doesNotMatch(second.stderr, new RegExp(first.token), 'the running host\'s token is not printed');
  // No file added, removed or rewritten (host.json still names the first host, the lock is still the first's).
  assert.deepEqual(snapshot(home.path), before);

  // `omni agent run` writes the ledger too: refused the same way, before it opens anything.
  const agentRun = spawnSync(
    process.execPath,
    [omniCli(), 'agent', 'run', 'workspace-summary', '--workspace', workspace.path, '--prompt', 'go', '--home', home.path],
    { encoding: 'utf8', timeout: 60_000, env: { ...process.env, OMNI_TEST: '1', OMNI_KEYCHAIN: 'off' } },
  );
  assert.equal(agentRun.status, 5, agentRun.stderr);
  assert.match(agentRun.stderr, new RegExp(`Another Omniscient Shell host \\(pid ${first.pid}, `));
  assert.deepEqual(snapshot(home.path), before);

  // The first host still serves, and its ledger never heard of the second.
  const client = await clientOf(first);
  t.after(() => client.dispose());
  const session = await client.call('session.create', { workspace: workspace.path, name: 'still here' });
  assert.deepEqual((await client.call('session.list', {})).map((s) => s.id), [session.id]);
  assert.deepEqual(await hostStarts(client), [first.pid]);
});

test('a host killed with SIGKILL leaves a lock that does not block: the next host takes it over; a clean stop releases it', { timeout: 180_000 }, async (t) => {
  const home = tempDir('one-host-crash');
  const workspace = tempDir('ws');
  let current: HostProcess | undefined;
  t.after(async () => {
    await current?.stop('SIGKILL');
    home.cleanup();
    workspace.cleanup();
  });
  const crashed = await startHostProcess(home.path);
  current = crashed;
  const killed = await crashed.stop('SIGKILL');
  assert.equal(killed.signal, 'SIGKILL');
  // What the crash left: the lock and host.json, both naming a pid that no longer runs.
  assert.equal((JSON.parse(readFileSync(homeLockPath(home.path), 'utf8')) as { pid: number }).pid, crashed.pid);
  assert.ok(existsSync(join(home.path, 'host.json')));

  const next = await startHostProcess(home.path);
  current = next;
  assert.equal((JSON.parse(readFileSync(homeLockPath(home.path), 'utf8')) as { pid: number }).pid, next.pid);
  const client = await clientOf(next);
  await client.call('session.create', { workspace: workspace.path });
  assert.deepEqual(await hostStarts(client), [crashed.pid, next.pid]);
  client.dispose();

  const stopped = await next.stop('SIGTERM');
  assert.equal(stopped.code, 0, next.output());
  assert.equal(existsSync(homeLockPath(home.path)), false, 'a clean stop removes the lock');
  assert.equal(existsSync(join(home.path, 'host.json')), false);
  current = undefined;
});

test('two hosts started at the same moment on a fresh home: exactly one runs, the other exits 5 naming it', { timeout: 180_000 }, async (t) => {
  const home = tempDir('one-host-race');
  const started = await Promise.allSettled([startHostProcess(home.path), startHostProcess(home.path)]);
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  t.after(async () => {
    await Promise.all(running.map((host) => host.stop()));
    home.cleanup();
  });
  assert.equal(running.length, 1, started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ready')).join('\n'));
  const refused = started.find((result) => result.status === 'rejected');
  assert.match(String(refused?.reason), /exited \(code 5, signal null\)/);
  // The winner may not have written host.json yet: then the message names its pid alone.
  assert.match(String(refused?.reason), new RegExp(`Another Omniscient Shell host \\(pid ${running[0].pid}[,)]`));
});

test('two hosts on two different homes run side by side', { timeout: 180_000 }, async (t) => {
  const homes = [tempDir('one-host-a'), tempDir('one-host-b')];
  const hosts: HostProcess[] = [];
  t.after(async () => {
    await Promise.all(hosts.map((host) => host.stop()));
    for (const home of homes) home.cleanup();
  });
  for (const home of homes) hosts.push(await startHostProcess(home.path));
  for (const [i, host] of hosts.entries()) {
    const client = await clientOf(host);
    const info = await client.call('host.info', {});
    client.dispose();
    assert.equal(info.home, homes[i].path);
    assert.equal(info.pid, host.pid);
  }
});

test('a lock naming a live pid that started at another time (a reused pid) is taken over; the same pid and start time is not', async (t) => {
  const home = tempDir('one-host-reuse');
  const other = spawn('sleep', ['60'], { stdio: 'ignore' });
  t.after(() => {
    other.kill('SIGKILL');
    home.cleanup();
  });
  const pid = other.pid!;
  const lockFile = homeLockPath(home.path);

  writeFileSync(lockFile, holderRecord(pid, '1'));
  const taken = await lockHome(home.path);
  assert.equal((JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number }).pid, process.pid);
  taken.release();
  assert.equal(existsSync(lockFile), false);

  // The same process (pid and start time) still runs: its lock stands, and the error names it.
  writeFileSync(lockFile, holderRecord(pid, startTimeOf(pid)));
  const refused = await lockHome(home.path).then(
    () => assert.fail('the lock of a running process was taken'),
    (error: unknown) => error,
  );
  assert.ok(refused instanceof HomeInUseError);
  assert.equal(refused.code, 'HOME_IN_USE');
  assert.equal(refused.holder?.pid, pid);
  assert.match(refused.message, new RegExp(`^Another Omniscient Shell host \\(pid ${pid}\\) is using ${home.path}\\. `));

  // host.json of that process adds how to reach it; one left by another pid says nothing about it.
  writeFileSync(join(home.path, 'host.json'), JSON.stringify({ url: 'http://127.0.0.1:5000', pid, kind: 'omni serve' }));
  await assert.rejects(lockHome(home.path), { message: new RegExp(`\\(pid ${pid}, http://127\\.0\\.0\\.1:5000/\\)`) });
  writeFileSync(join(home.path, 'host.json'), JSON.stringify({ url: 'http://127.0.0.1:5000', pid, kind: 'desktop app' }));
  await assert.rejects(lockHome(home.path), { message: new RegExp(`\\(pid ${pid}, the desktop app\\)`) });
  writeFileSync(join(home.path, 'host.json'), JSON.stringify({ url: 'http://127.0.0.1:5000', pid: pid + 1, kind: 'omni serve' }));
  await assert.rejects(lockHome(home.path), { message: new RegExp(`\\(pid ${pid}\\) is using`) });

  // A holder on another machine (a home on a shared disk) cannot be checked from here: never taken over silently.
  writeFileSync(lockFile, holderRecord(4242, '1', 'another-machine'));
  await assert.rejects(lockHome(home.path), (error: unknown) => {
    assert.ok(error instanceof HomeInUseError);
    assert.match(error.message, /\(pid 4242 on another-machine\)/);
    assert.match(error.message, new RegExp(`if it does not, delete ${lockFile}`));
    return true;
  });
});

test('a lock file damaged by hand (not JSON) does not block a start for good: it is taken over', async (t) => {
  const home = tempDir('one-host-damaged');
  t.after(home.cleanup);
  const lockFile = homeLockPath(home.path);
  writeFileSync(lockFile, 'not a lock');
  const past = new Date(Date.now() - 60_000);
  utimesSync(lockFile, past, past);
  const taken = await lockHome(home.path);
  assert.equal((JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number }).pid, process.pid);
  taken.release();
});

test('in one process too: a second createHostServices on the home is refused before it opens anything, and dispose releases the home', { timeout: 60_000 }, async (t) => {
  const home = tempDir('one-host-inproc');
  const first = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'off' });
  let firstOpen = true;
  t.after(async () => {
    if (firstOpen) await first.dispose();
    home.cleanup();
  });
  await assert.rejects(createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'off' }), HomeInUseError);
  await first.dispose();
  firstOpen = false;
  assert.equal(existsSync(homeLockPath(home.path)), false);
  const again = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'off' });
  await again.dispose();
});
