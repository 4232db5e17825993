// The UI's exec calls, one per operation (exec.spawn / poll / kill / sendKeys), through the real host: each does what
// the shell tool's action does, each schema requires what its operation needs, and refusals are typed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunItem } from '../../src-preload/contract';
import { waitFor } from '../helpers';
import { hostWithWorkspace } from '../server/connect';

test('spawn, poll, sendKeys and kill: one call each, on the same runs as the shell tool', { timeout: 60_000 }, async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });

  const once = await client.call('exec.spawn', { sessionId: session.id, command: 'printf "one\\ntwo\\n"', background: false });
  assert.equal(once.status, 'exited', 'background: false answers once the run has ended');
  const polled = await client.call('exec.poll', { runId: once.runId });
  assert.equal(polled.exitCode, 0);
  assert.equal(polled.items.filter((i) => i.kind === 'stdout').map((i) => i.data).join(''), 'one\ntwo\n');
  assert.equal(polled.more, false);
  assert.deepEqual((await client.call('exec.poll', { runId: once.runId, sinceSeq: polled.nextSeq })).items, [], 'nothing after the last item');

  const typed = await client.call('exec.spawn', { sessionId: session.id, command: 'cat', pty: true });
  const { seq } = await client.call('exec.sendKeys', { runId: typed.runId, keys: ['hello', 'Enter'] });
  assert.ok(seq >= 1);
  let output = '';
  await waitFor(async () => {
    const page = await client.call('exec.poll', { runId: typed.runId });
    output = page.items.filter((i: RunItem) => i.kind === 'output').map((i) => i.data).join('');
    return output.includes('hello');
  }, 'cat echoing the keys');
  assert.equal((await client.call('exec.kill', { runId: typed.runId })).status, 'killed');
  const run = (await client.call('exec.runs', { sessionId: session.id })).find((r) => r.run_id === typed.runId);
  assert.equal(run?.status, 'killed');
});

test('refusals: each operation names what is missing or wrong', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  await assert.rejects(client.call('exec.spawn', { sessionId: session.id } as never), { code: 'INVALID_PARAMS', message: /invalid parameters for exec\.spawn/ });
  await assert.rejects(client.call('exec.kill', { runId: 'nope' }), { code: 'INVALID_PARAMS' });
  await assert.rejects(client.call('exec.sendKeys', { runId: 'run_doesnotexist', keys: [] }), { code: 'INVALID_PARAMS' });
  await assert.rejects(client.call('exec.poll', { runId: 'run_doesnotexist' }), { code: 'NOT_FOUND', message: /check the run_id that spawn returned/ });
  await assert.rejects(client.call('exec.spawn', { sessionId: session.id, command: 'true', run_id: 'run_abcdefgh' } as never), { code: 'INVALID_PARAMS' }, 'the shell tool\'s fields are not this call\'s');
  await client.call('session.close', { id: session.id });
  await assert.rejects(client.call('exec.spawn', { sessionId: session.id, command: 'true' }), { code: 'INVALID_STATE' });
});
