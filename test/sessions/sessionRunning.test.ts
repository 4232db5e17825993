import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { waitFor } from '../helpers';
import { hostWithWorkspace } from '../server/connect';

test('a session says what runs in it (what closing it would stop), and nothing once it is closed', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const other = await client.call('session.create', { workspace: workspace.path });
  assert.deepEqual(await client.call('session.running', { id: session.id }), { terminals: 0, runs: 0, agents: 0 });

  await client.call('terminal.open', { sessionId: session.id, cols: 80, rows: 24 });
  await client.call('terminal.open', { sessionId: session.id, cols: 80, rows: 24 });
  await client.call('terminal.open', { sessionId: other.id, cols: 80, rows: 24 });
  await client.call('exec.shell', { action: 'spawn', session_id: session.id, command: 'sleep 60' });
  await waitFor(async () => (await client.call('exec.runs', { sessionId: session.id })).some((run) => run.status === 'running'), 'the run executing');

  assert.deepEqual(await client.call('session.running', { id: session.id }), { terminals: 2, runs: 1, agents: 0 });
  assert.deepEqual(await client.call('session.running', { id: other.id }), { terminals: 1, runs: 0, agents: 0 }, "another session's terminal is its own");

  await client.call('session.close', { id: session.id });
  assert.deepEqual(await client.call('session.running', { id: session.id }), { terminals: 0, runs: 0, agents: 0 });
});

test('recent workspaces: the folders of past sessions, most recently used first, each once, missing ones marked', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const [one, two, gone] = ['one', 'two', 'gone'].map((name) => {
    mkdirSync(join(workspace.path, name));
    return join(workspace.path, name);
  });
  // Each step in a later millisecond than the one before, so "most recent" is well defined.
  const later = async () => {
    const at = Date.now();
    await waitFor(() => Date.now() > at, 'the clock to move on');
  };
  const first = await client.call('session.create', { workspace: one, name: 'first' });
  await later();
  await client.call('session.create', { workspace: gone, name: 'in a folder deleted since' });
  await later();
  await client.call('session.create', { workspace: two, name: 'second' });
  await later();
  await client.call('session.close', { id: first.id });
  rmSync(gone, { recursive: true });

  const recent = await client.call('session.recentWorkspaces', {});

  assert.deepEqual(
    recent.map((r) => [r.workspace, r.sessionName, r.exists]),
    [
      [one, 'first', true],
      [two, 'second', true],
      [gone, 'in a folder deleted since', false],
    ],
  );
  assert.deepEqual((await client.call('session.recentWorkspaces', { limit: 1 })).map((r) => r.workspace), [one]);
});
