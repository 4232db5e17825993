// An agent's command that writes past its staged-writes limit: the run ends, failed, with a `disk_quota` event the
// user (Runs panel) and the agent (poll) both read, and none of its writes in the workspace.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConsentEngine } from '../../src-main/node/consent/consentEngine';
import { agentRunLauncher } from '../../src-main/node/exec/agentRunLauncher';
import { ExecService } from '../../src-main/node/exec/execService';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { createNativeSandbox } from '../../src-main/node/sandbox/native/nativeSandbox';
import { SessionService } from '../../src-main/node/sessions/sessionService';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir, waitFor } from '../helpers';

const LIMIT = 4 * 1024 * 1024;

test("an agent's command past its staged-writes limit fails with a disk_quota event; nothing reaches the workspace", async (t) => {
  const dir = tempDir('exec-quota');
  const home = join(dir.path, 'home');
  const workspace = join(realpathSync(dir.path), 'workspace');
  mkdirSync(workspace);
  const db = openDatabase(join(home, 'memory', 'sessions.db'));
  const ledger = new Ledger(db);
  const sessions = new SessionService(db, ledger);
  const sessionId = sessions.create(workspace, 'quota', 'user').id;
  const consent = new ConsentEngine(db, ledger, { onError: () => undefined });
  const sandbox = createNativeSandbox({ appHome: home });
  const exec = new ExecService(db, ledger, {
    launcher: agentRunLauncher({ sandbox, sessions, consent, resourcesOf: () => undefined, stagedWriteBytes: LIMIT }),
    onError: () => undefined,
  });
  t.after(async () => {
    await exec.dispose();
    sandbox.dispose();
    consent.dispose();
    await ledger.close();
    db.close();
    dir.cleanup();
  });
  await exec.start();
  const caller = { actor: 'agent:builder', sessionId, workspace };

  const spawned = await exec.shell({ action: 'spawn', command: 'echo start; head -c 16777216 /dev/zero > big; echo carried-on; sleep 600' }, caller);
  assert.equal(spawned.action, 'spawn');
  const runId = spawned.run_id;
  const ended = await waitFor(() => exec.listRuns(sessionId).find((run) => run.run_id === runId && run.status !== 'queued' && run.status !== 'running'), 'the run to end', 30_000);
  assert.equal(ended.status, 'failed');
  assert.match(ended.reason ?? '', /^disk quota: the run's staged writes reached their limit of 4 MiB/);

  // What the agent polls: the disk_quota event, then the exit that names it.
  const page = await exec.shell({ action: 'poll', run_id: runId, since_seq: 0 }, caller);
  assert.equal(page.action, 'poll');
  assert.equal(page.status, 'failed');
  const events = page.items.filter((item) => item.kind === 'event');
  assert.deepEqual(events.map((item) => item.data), ['disk_quota', 'exit']);
  assert.equal(events[0].detail?.limit_bytes, LIMIT);
  assert.match(String(events[0].detail?.message), /nothing reached the workspace/);
  assert.equal(events[1].detail?.status, 'failed');
  assert.equal(events[1].detail?.reason, ended.reason);

  assert.deepEqual(readdirSync(workspace).filter((name) => name !== '.meta'), [], 'none of its writes landed');
  assert.deepEqual(readdirSync(join(home, 'staging')).filter((name) => !name.startsWith('omni-native-etc-')), [], 'its staging is gone');
});
