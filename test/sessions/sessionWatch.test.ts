// session.watch: every session, then each create / rename / close / reopen as the session now is. A list of open
// sessions only loses a closed one (a remove) and gets it back when it is reopened.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LiveListFrame, Session } from '../../src-preload/contract';
import { waitFor } from '../helpers';
import { hostWithWorkspace } from '../server/connect';

const brief = (f: LiveListFrame<Session>) =>
  f.kind === 'snapshot' ? ['snapshot', f.items.map((s) => s.name)] : f.kind === 'upsert' ? [f.item.name, f.item.status] : ['remove', f.id];

test('session.watch: with closed sessions every change is an upsert; of open ones only, a close removes and a reopen adds', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const a = await client.call('session.create', { workspace: workspace.path, name: 'a' });
  const all: LiveListFrame<Session>[] = [];
  const open: LiveListFrame<Session>[] = [];
  client.subscribe('session.watch', { includeClosed: true }, { onItem: (f) => all.push(f) });
  client.subscribe('session.watch', {}, { onItem: (f) => open.push(f) });
  await waitFor(() => all.length === 1 && open.length === 1, 'the snapshots');

  const b = await client.call('session.create', { workspace: workspace.path, name: 'b' });
  await client.call('session.rename', { id: a.id, name: 'a2' });
  await client.call('session.close', { id: b.id });
  await client.call('session.reopen', { id: b.id });
  await waitFor(() => all.length === 5 && open.length === 5, 'the changes');
  assert.deepEqual(all.map(brief), [['snapshot', ['a']], ['b', 'open'], ['a2', 'open'], ['b', 'closed'], ['b', 'open']]);
  assert.deepEqual(open.map(brief), [['snapshot', ['a']], ['b', 'open'], ['a2', 'open'], ['remove', b.id], ['b', 'open']]);
});
