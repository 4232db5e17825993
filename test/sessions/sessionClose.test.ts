import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitFor } from '../helpers';
import { hostWithWorkspace } from '../server/connect';

test('closing a session stops its terminals and its process runs before the close is answered', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const other = await client.call('session.create', { workspace: workspace.path });
  await client.call('terminal.open', { sessionId: session.id, cols: 80, rows: 24 });
  const kept = await client.call('terminal.open', { sessionId: other.id, cols: 80, rows: 24 });
  await client.call('exec.shell', { action: 'spawn', session_id: session.id, command: 'sleep 60' });
  await client.call('exec.shell', { action: 'spawn', session_id: other.id, command: 'sleep 60' });
  const running = async (sessionId: string) => (await client.call('exec.runs', { sessionId })).filter((run) => run.status === 'running').length === 1;
  await waitFor(() => running(session.id), 'the run executing');
  await waitFor(() => running(other.id), "the other session's run executing");

  const closed = await client.call('session.close', { id: session.id });

  assert.equal(closed.status, 'closed');
  assert.deepEqual(await client.call('terminal.list', { sessionId: session.id }), [], 'no terminal left in the closed session');
  assert.deepEqual((await client.call('exec.runs', { sessionId: session.id })).map((run) => run.status), ['killed']);
  // Nothing of another session stops with it.
  assert.deepEqual((await client.call('terminal.list', { sessionId: other.id })).map((terminal) => [terminal.id, terminal.status]), [[kept.id, 'running']]);
  assert.deepEqual((await client.call('exec.runs', { sessionId: other.id })).map((run) => run.status), ['running']);
});
