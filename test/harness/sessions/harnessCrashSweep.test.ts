// A host that crashed leaves its harness CLIs' processes behind (a headless CLI keeps going without its reader). Every
// process of a launch carries the launch's mark, so the next host ends them at start, whatever group or session they
// moved to, and shows the session stopped and resumable.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { isAlive } from '../../../src-main/node/base/processTable';
import { RUN_MARKER } from '../../../src-main/node/exec/runProcesses';
import { connectClient, startTestHost } from '../../server/connect';
import { tempDir, waitFor } from '../../helpers';

test('a CLI left running by a crashed host is ended when the next host starts; its session is stopped and resumable', async (t) => {
  const home = tempDir('harness-crash');
  const workspace = tempDir('ws');
  let host = await startTestHost(home.path);
  t.after(async () => {
    await host.server.close();
    home.cleanup();
    workspace.cleanup();
  });
  let client = await connectClient(host.server);
  const session = await client.call('session.create', { workspace: workspace.path });
  client.dispose();
  // What a crash leaves: the row still says running, and the CLI (here a stand-in that ignores SIGTERM and detached
  // into a session of its own) is still there, carrying the launch's mark.
  const id = 'hrn_crashedLaunch01';
  host.server.services.db
    .prepare(
      `INSERT INTO harness_sessions (id, session_id, frontend, provider, interaction_mode, io_mode, continuation_key, origin_cwd, status, created_at, updated_at, launched_at)
       VALUES (?, ?, 'claude-code', 'anthropic', 'headless', 'pipes', '0199a213-81c0-7800-8aa1-bbab2a035a53', ?, 'running', 1, 1, 1)`,
    )
    .run(id, session.id, workspace.path);
  const leftover = spawn('/bin/sh', ['-c', 'trap "" TERM; while :; do sleep 1; done'], { env: { PATH: process.env.PATH, [RUN_MARKER]: id }, detached: true, stdio: 'ignore' });
  leftover.unref();
  t.after(() => {
    if (leftover.pid && isAlive(leftover.pid)) process.kill(-leftover.pid, 'SIGKILL');
  });
  assert.ok(leftover.pid && isAlive(leftover.pid));
  await host.server.close();
  assert.ok(isAlive(leftover.pid), 'a host that only knows the row does not touch the process at stop');

  host = await startTestHost(home.path);
  await waitFor(() => !isAlive(leftover.pid!), 'the leftover CLI ended by the new host', 10_000);
  client = await connectClient(host.server);
  t.after(() => client.dispose());
  const [row] = await client.call('harness.list', { sessionId: session.id });
  assert.equal(row.status, 'stopped');
  assert.match(row.statusReason ?? '', /Resume continues the conversation/);
  assert.equal(row.continuation.key, '0199a213-81c0-7800-8aa1-bbab2a035a53');
});
