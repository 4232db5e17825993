import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsentGrant, ConsentPrompt, LiveListFrame } from '../../src-preload/contract';
import { CapabilityRevokedError } from '../../src-main/node/consent/consentErrors';
import { waitFor } from '../helpers';
import { hostWithWorkspace } from '../server/connect';

test('through the real host: the consent card sees the prompt, answers it, lists the grant and revokes it', async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  const consent = host.server.services.consent;
  const session = await client.call('session.create', { workspace: workspace.path });
  const use = { agentId: 'scaffolder', sessionId: session.id, capability: 'files.write', target: 'src/new.ts' };

  // Nobody watches the session's consent cards yet: the prompt waits for a page (and the card that opens denies it).
  const unwatched = consent.request({ ...use, reason: 'write the scaffold', durationS: 600 });
  const consentTypes = async () => (await client.call('ledger.list', { sessionId: session.id, limit: 100 })).map((e) => e.type).filter((type) => type.startsWith('consent.'));
  await waitFor(async () => (await consentTypes()).includes('consent.request'), 'the request recorded');
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(await consentTypes(), ['consent.request'], 'asked, not denied: nobody watching is not an answer');

  const prompts: ConsentPrompt[] = [];
  const settled: string[] = [];
  const changes: LiveListFrame<ConsentGrant>[] = [];
  client.subscribe('consent.prompts', { sessionId: session.id }, {
    onItem: (event) => (event.kind === 'pending' ? prompts.push(event.prompt) : settled.push(event.promptId)),
  });
  client.subscribe('consent.watchGrants', { sessionId: session.id }, { onItem: (change) => changes.push(change) });
  // The live list starts with its snapshot: no grants yet.
  await waitFor(() => changes.length === 1, 'the grants snapshot');
  assert.deepEqual(changes.shift(), { kind: 'snapshot', items: [] });
  const waiting = await waitFor(() => prompts[0], 'the waiting prompt, replayed to the card');
  await client.call('consent.answer', { promptId: waiting.id, answer: { kind: 'deny' } });
  assert.equal(await unwatched, 'deny');
  prompts.length = 0;

  const asked = consent.ask({ ...use, scope: 'src/**', reason: 'write the scaffold', durationS: 600 });
  const prompt = await waitFor(() => prompts[0], 'the consent prompt');
  assert.deepEqual(
    { agentId: prompt.agentId, capability: prompt.capability, scope: prompt.scope, reason: prompt.reason, durationS: prompt.durationS },
    { agentId: 'scaffolder', capability: 'files.write', scope: 'src/**', reason: 'write the scaffold', durationS: 600 },
  );
  // An answer outside the contract is refused by the bridge, and the prompt keeps waiting.
  await assert.rejects(client.call('consent.answer', { promptId: prompt.id, answer: { kind: 'allow_for', minutes: 0 } } as never), { code: 'INVALID_PARAMS' });
  await client.call('consent.answer', { promptId: prompt.id, answer: { kind: 'allow_for', minutes: 10 } });
  const outcome = await asked;
  assert.equal(outcome.decision, 'allow');
  await waitFor(() => settled.includes(prompt.id), 'the prompt to settle');
  await assert.rejects(client.call('consent.answer', { promptId: prompt.id, answer: { kind: 'deny' } }), { code: 'NOT_FOUND' });

  const grants = await client.call('consent.grants', { sessionId: session.id });
  assert.deepEqual(grants.map((g) => [g.id, g.scope, g.expiresAt - g.grantedAt]), [[outcome.grant!.id, 'src/**', 600_000]]);
  const { signal } = consent.authorize(use);

  const revoked = await client.call('consent.revoke', { grantId: outcome.grant!.id });
  assert.equal(revoked.status, 'revoked');
  assert.equal(signal.aborted, true);
  assert.throws(() => consent.authorize(use), CapabilityRevokedError);
  await waitFor(() => changes.length === 2, 'the grant changes');
  assert.deepEqual(
    changes.map((c) => [c.kind, c.kind === 'upsert' ? c.item.id : c.kind === 'remove' ? c.id : null]),
    [
      ['upsert', outcome.grant!.id],
      ['remove', outcome.grant!.id],
    ],
    'granted joins the list, revoked leaves it',
  );
  assert.deepEqual(await client.call('consent.grants', { sessionId: session.id }), []);
  await assert.rejects(client.call('consent.revoke', { grantId: 'grant_notARealGrant' }), { code: 'NOT_FOUND' });

  const entries = (await client.call('ledger.list', { sessionId: session.id, limit: 100 })).reverse().filter((e) => e.type.startsWith('consent.'));
  // The last: the use after the revoke, denied as revoked.
  assert.deepEqual(entries.map((e) => e.type), ['consent.request', 'consent.deny', 'consent.request', 'consent.grant', 'consent.revoke', 'consent.deny']);
  assert.equal(entries.at(-1)!.payload.code, 'revoked');
});
