// What waits for the user, as the page follows it: the attention store's counts, the window title, and
// AttentionFollower against the real host (a consent request joins and leaves the session's waiting list, and
// following the session is what makes the host count it as watched).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttentionFollower } from '../../../src-renderer/features/attention/attentionFollower';
import { titleWithCount } from '../../../src-renderer/features/attention/windowAttention';
import { useAttention, waitingIn, waitingTotal, type WaitingItem } from '../../../src-renderer/ui/attention/attentionStore';
import { waitFor } from '../../helpers';
import { hostWithWorkspace } from '../../server/connect';

const item = (kind: WaitingItem['kind'], id: string, sessionId: string, since: number): WaitingItem => ({ kind, id, sessionId, summary: id, since });

test('the store counts what waits per session and in all, oldest first, and forgets a session', () => {
  const { setWaiting, forget } = useAttention.getState();
  setWaiting('ses_a', 'consent', [item('consent', 'p2', 'ses_a', 20)]);
  setWaiting('ses_a', 'checkpoint', [item('checkpoint', 'c1', 'ses_a', 10)]);
  setWaiting('ses_b', 'consent', [item('consent', 'p3', 'ses_b', 5)]);
  assert.deepEqual(waitingIn(useAttention.getState(), 'ses_a').map((i) => i.id), ['c1', 'p2']);
  assert.equal(waitingTotal(useAttention.getState()), 3);
  setWaiting('ses_a', 'consent', []);
  assert.equal(waitingTotal(useAttention.getState()), 2);
  forget('ses_b');
  forget('ses_b');
  assert.equal(waitingTotal(useAttention.getState()), 1);
  assert.deepEqual(waitingIn(useAttention.getState(), 'ses_unknown'), []);
  forget('ses_a');
});

test('the window title carries the count only when something waits', () => {
  assert.equal(titleWithCount('Omniscient Shell', 0), 'Omniscient Shell');
  assert.equal(titleWithCount('Omniscient Shell', 2), '(2) Omniscient Shell');
});

test('through the real host: a consent request joins the session waiting list while it waits and leaves it once answered', async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  const consent = host.server.services.consent;
  const session = await client.call('session.create', { workspace: workspace.path });
  const seen: { kind: string; ids: string[] }[] = [];
  const follower = new AttentionFollower(client, (sessionId, kind, items) => {
    assert.equal(sessionId, session.id);
    seen.push({ kind, ids: items.map((i) => i.summary) });
  });
  t.after(() => follower.dispose());
  follower.follow([session.id]);
  await waitFor(() => seen.some((s) => s.kind === 'checkpoint'), 'the checkpoints snapshot');

  const asked = consent.request({ agentId: 'scaffolder', sessionId: session.id, capability: 'files.write', target: 'out.txt', reason: 'save it', durationS: 60 });
  const shown = await waitFor(() => [...seen].reverse().find((s) => s.kind === 'consent' && s.ids.length === 1), 'the request in the waiting list');
  assert.deepEqual(shown.ids, ['scaffolder asks for files.write']);

  const prompts: string[] = [];
  const watching = client.subscribe('consent.prompts', { sessionId: session.id }, { onItem: (e) => e.kind === 'pending' && prompts.push(e.prompt.id) });
  const promptId = await waitFor(() => prompts[0], 'the prompt');
  await client.call('consent.answer', { promptId, answer: { kind: 'deny' } });
  assert.equal(await asked, 'deny');
  await waitFor(() => seen.at(-1)!.kind === 'consent' && seen.at(-1)!.ids.length === 0, 'the request gone from the list');
  watching.dispose();

  // Following no session any more: nothing is sent on.
  follower.follow([]);
  const before = seen.length;
  void consent.request({ agentId: 'scaffolder', sessionId: session.id, capability: 'files.write', target: 'two.txt', reason: 'save it', durationS: 60 });
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(seen.length, before);
});
