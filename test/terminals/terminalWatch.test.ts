// terminal.watch: the session's terminal list, live. Opened, resized and exited terminals come as they now are, a
// closed one is removed, other sessions' terminals stay out, and an unknown session is NOT_FOUND.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LiveListFrame, RpcError, Terminal } from '../../src-preload/contract';
import { waitFor } from '../helpers';
import { hostWithWorkspace } from '../server/connect';

test('terminal.watch: a snapshot, then opened, resized, exited and closed terminals of this session only', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const other = await client.call('session.create', { workspace: workspace.path });
  const first = await client.call('terminal.open', { sessionId: session.id, cols: 80, rows: 24 });
  const frames: LiveListFrame<Terminal>[] = [];
  client.subscribe('terminal.watch', { sessionId: session.id }, { onItem: (frame) => frames.push(frame) });
  await waitFor(() => frames.length === 1, 'the snapshot');
  assert.deepEqual(frames.shift(), { kind: 'snapshot', items: [first] });

  await client.call('terminal.open', { sessionId: other.id, cols: 80, rows: 24 });
  const second = await client.call('terminal.open', { sessionId: session.id, cols: 80, rows: 24 });
  await client.call('terminal.resize', { id: first.id, cols: 100, rows: 30 });
  await client.call('terminal.input', { id: second.id, data: 'exit 3\r' });
  await waitFor(() => frames.some((f) => f.kind === 'upsert' && f.item.id === second.id && f.item.status === 'exited'), 'the exit');
  await client.call('terminal.close', { id: first.id });
  await waitFor(() => frames.some((f) => f.kind === 'remove'), 'the removal');
  assert.deepEqual(
    frames.map((f) => (f.kind === 'upsert' ? [f.item.id, f.item.status, f.item.cols, f.item.exitCode] : f.kind === 'remove' ? ['remove', f.id] : ['snapshot'])),
    [
      [second.id, 'running', 80, null],
      [first.id, 'running', 100, null],
      [second.id, 'exited', 80, 3],
      ['remove', first.id],
    ],
  );
});

test('terminal.watch of an unknown session ends with NOT_FOUND', async (t) => {
  const { client } = await hostWithWorkspace(t);
  const end = await new Promise<RpcError | undefined>((resolve) => client.subscribe('terminal.watch', { sessionId: 'ses_doesnotexist' }, { onItem: () => undefined, onEnd: resolve }));
  assert.equal(end?.code, 'NOT_FOUND');
});
