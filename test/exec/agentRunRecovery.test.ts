// After a host crash, a command an agent asked for is not run again: the agent run that asked (and its grants) ended
// with that host. It ends `interrupted`, with the reason, in what the user lists and the agent polls. A user's run in
// the same crash is recovered as the spec says (running → queued, run again).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runProcesses } from '../../src-main/node/exec/runProcesses';
import { openDatabaseReadOnly } from '../../src-main/node/store/database';
import { tempDir, waitFor } from '../helpers';
import { startHost } from './crashHost';
import { execFixture, pollAll } from './execFixture';

const AGENT_SESSION = 'ses_agentrecovery1';
const USER_SESSION = 'ses_userrecovery01';
/** Each start of a command appends a line to its file in the workspace: how many times it ran (0 before its shell
 * has written it: a run has its process group a moment before the shell runs the first command). */
const starts = (workspace: string, file: string) =>
  existsSync(join(workspace, file)) ? readFileSync(join(workspace, file), 'utf8').split('\n').filter(Boolean).length : 0;

test("kill -9 of the host while an agent's command runs: at the next start it ends interrupted, visibly, and is not run again", async (t) => {
  const dir = tempDir('exec-agent-crash');
  t.after(dir.cleanup);
  const workspace = join(dir.path, 'workspace');

  const first = startHost(dir.path, [
    { actor: 'agent:builder', request: { action: 'spawn', command: 'echo ran >> agent.txt; sleep 600', session_id: AGENT_SESSION } },
    // Queued behind it (a session runs one command at a time): never started.
    { actor: 'agent:builder', request: { action: 'spawn', command: 'echo ran >> queued.txt', session_id: AGENT_SESSION } },
    { actor: 'user', request: { action: 'spawn', command: 'echo ran >> user.txt; sleep 1', session_id: USER_SESSION } },
  ]);
  const [agentRun, queuedRun, userRun] = (await first.next('spawned')).spawned as string[];
  const reader = openDatabaseReadOnly(join(dir.path, 'memory', 'sessions.db'));
  const row = reader.prepare<[string], { status: string; pgid: number | null }>('SELECT status, pgid FROM exec_runs WHERE run_id = ?');
  await waitFor(() => row.get(agentRun)?.pgid && row.get(userRun)?.pgid, 'both commands to be running', 20_000);
  await waitFor(() => starts(workspace, 'agent.txt') === 1 && starts(workspace, 'user.txt') === 1, 'both commands to start');
  first.child.kill('SIGKILL');
  await first.lines;
  const oldGroup = row.get(agentRun)!.pgid!;
  assert.equal(row.get(agentRun)!.status, 'running', 'the crash left it running');
  assert.equal(row.get(queuedRun)!.status, 'queued');
  reader.close();

  const second = startHost(dir.path);
  const { recovered } = (await second.next('recovered')) as { recovered: { runId: string; outcome: string }[] };
  assert.deepEqual(
    recovered.map(({ runId, outcome }) => ({ runId, outcome })).sort((a, b) => a.runId.localeCompare(b.runId)),
    [
      { runId: agentRun, outcome: 'interrupted' },
      { runId: queuedRun, outcome: 'interrupted' },
      { runId: userRun, outcome: 'requeued' },
    ].sort((a, b) => a.runId.localeCompare(b.runId)),
  );
  await second.next('idle');
  await second.lines;

  assert.equal(starts(workspace, 'agent.txt'), 1, "the agent's command was not run again");
  assert.throws(() => readFileSync(join(workspace, 'queued.txt')), /ENOENT/, 'its queued command never ran');
  assert.equal(starts(workspace, 'user.txt'), 2, "the user's command was run again, as the spec says");
  assert.deepEqual(runProcesses(agentRun, oldGroup, 'if-marked'), [], "the agent command's old processes were ended");

  // What the user lists and the agent polls.
  const f = await execFixture({}, { path: dir.path, cleanup: () => undefined });
  t.after(() => f.close());
  const listed = f.exec.listRuns(AGENT_SESSION);
  for (const runId of [agentRun, queuedRun]) {
    const run = listed.find((r) => r.run_id === runId)!;
    assert.equal(run.status, 'interrupted');
    assert.match(run.reason ?? '', /the agent run that asked for it ended when the host stopped.*not run again/);
    const { items, status } = await pollAll(f, runId);
    assert.equal(status, 'interrupted');
    const events = items.filter((item) => item.kind === 'event');
    assert.deepEqual(events.map((item) => [item.data, item.detail?.outcome ?? item.detail?.status]), [
      ['recovered', 'interrupted'],
      ['exit', 'interrupted'],
    ]);
    assert.equal(events[1].detail?.reason, run.reason);
  }
  const user = f.exec.listRuns(USER_SESSION).find((r) => r.run_id === userRun)!;
  assert.deepEqual([user.status, user.exit_code, user.attempt], ['exited', 0, 2]);
});
