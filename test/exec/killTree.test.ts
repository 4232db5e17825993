import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runProcesses } from '../../src-main/node/exec/runProcesses';
import { waitFor } from '../helpers';
import { execFixture, pollAll, spawnRun, waitEnded } from './execFixture';

const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

/** The session id of a process (field 6 of /proc/pid/stat). */
const sessionOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[3]);

test('kill ends the whole tree: children in the group and a daemonised grandchild (setsid + double fork)', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  // The daemon: a setsid'd shell starts sleep in the background and exits, so sleep is re-parented away from the
  // run and lives in another session and process group. A plain child sleeps in the run's group.
  const command =
    "setsid sh -c 'sleep 300 & echo $! > daemon.pid' </dev/null >/dev/null 2>&1 & " + //
    'sleep 300 & echo $! > child.pid; echo started; wait';
  const runId = await spawnRun(f, { command });
  const daemonFile = join(f.workspace, 'daemon.pid');
  const childFile = join(f.workspace, 'child.pid');
  await waitFor(() => existsSync(daemonFile) && existsSync(childFile) && readFileSync(daemonFile, 'utf8').trim() !== '', 'the daemon and child to start');
  const daemon = Number(readFileSync(daemonFile, 'utf8'));
  const child = Number(readFileSync(childFile, 'utf8'));
  const run = f.exec.listRuns('ses_execfixture01').find((r) => r.run_id === runId)!;
  assert.ok(alive(daemon) && alive(child), 'both are running');
  const runPgid = f.db.prepare<[string], { pgid: number }>('SELECT pgid FROM exec_runs WHERE run_id = ?').get(runId)!.pgid;
  assert.notEqual(sessionOf(daemon), runPgid, 'the daemon left the run session');
  assert.equal(run.status, 'running');

  const killed = await f.shell({ action: 'kill', run_id: runId });
  assert.equal(killed.action, 'kill');
  // Gone: polled until /proc no longer shows them (the time it takes is measured in `npm run bench`, part exec).
  await waitFor(() => !alive(daemon) && !alive(child), 'the daemon and the child to be gone', 20_000);
  assert.deepEqual(runProcesses(runId, runPgid), [], 'nothing of the run is left');
  const ended = await waitEnded(f, runId);
  assert.equal(ended.status, 'killed');
  assert.equal(ended.reason, 'killed by user');
  const { items } = await pollAll(f, runId);
  const events = items.filter((item) => item.kind === 'event').map((item) => item.data);
  assert.deepEqual(events, ['killed', 'exit']);
});

test('a daemon that keeps the output pipe open does not keep the run alive after its command exits, nor outlive it', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const runId = await spawnRun(f, { command: "setsid sh -c 'echo $$ > holder.pid; exec sleep 300' & while [ ! -s holder.pid ]; do sleep 0.05; done; echo bye" });
  const ended = await waitEnded(f, runId);
  assert.equal(ended.status, 'exited');
  assert.equal(ended.exit_code, 0);
  const holder = Number(readFileSync(join(f.workspace, 'holder.pid'), 'utf8'));
  await waitFor(() => !alive(holder), 'the pipe holder to be gone', 20_000);
  const { items } = await pollAll(f, runId);
  assert.equal(items.filter((item) => item.kind === 'stdout').map((item) => item.data).join(''), 'bye\n');
});

test('a queued run that is killed never starts', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const first = await spawnRun(f, { command: 'sleep 300' });
  const second = await spawnRun(f, { command: 'echo should-not-run > ran' });
  const killed = await f.shell({ action: 'kill', run_id: second });
  assert.deepEqual(killed, { action: 'kill', run_id: second, status: 'killed' });
  await f.shell({ action: 'kill', run_id: first });
  await waitEnded(f, first);
  assert.equal(existsSync(join(f.workspace, 'ran')), false);
  const { items } = await pollAll(f, second);
  assert.deepEqual(items.map((item) => [item.kind, item.data, item.detail?.reason ?? null]), [
    ['event', 'killed', null],
    ['event', 'exit', 'killed by user before it started'],
  ]);
});

test("closing a session: killSessionRuns ends its running run and its queue, and leaves other sessions' runs alone", async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const running = await spawnRun(f, { command: 'sleep 300' });
  const queued = await spawnRun(f, { command: 'sleep 300' });
  const other = await spawnRun(f, { command: 'sleep 300', session_id: 'ses_othersession1' });
  await waitFor(() => f.exec.listRuns('ses_execfixture01').find((r) => r.run_id === running)?.status === 'running', 'the first run to start');
  await f.exec.killSessionRuns('ses_execfixture01', 'user');
  assert.equal((await waitEnded(f, running)).status, 'killed');
  assert.equal((await waitEnded(f, queued)).status, 'killed');
  assert.equal(f.exec.listRuns('ses_othersession1')[0].status === 'queued' || f.exec.listRuns('ses_othersession1')[0].status === 'running', true);
  await f.shell({ action: 'kill', run_id: other });
});
