import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT, deferred, openConsent, ScriptedChannel, SESSION } from './consentFixture';

const ask = { agentId: AGENT, sessionId: SESSION, capability: 'network', target: 'api.example.org', method: 'GET', reason: 'fetch the docs', durationS: 600 };

test('identical asks made at the same time share one prompt and one grant', async (t) => {
  const f = openConsent(t);
  const answer = deferred<unknown>();
  const channel = new ScriptedChannel(() => answer.promise);
  f.engine.attachChannel(channel);
  const asks = Array.from({ length: 5 }, () => f.engine.ask(ask));
  const other = f.engine.ask({ ...ask, target: 'cdn.example.org' });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(channel.prompts.length, 2, 'one prompt for the five identical asks, one for the other host');
  answer.resolve({ kind: 'allow_for', minutes: 10 });
  const outcomes = await Promise.all(asks);
  assert.ok(outcomes.every((o) => o.decision === 'allow'));
  assert.equal(new Set(outcomes.map((o) => o.grant!.id)).size, 1);
  assert.equal((await other).decision, 'allow');
  assert.equal(f.engine.list(SESSION).length, 2);
  assert.equal(f.entries('consent.request').length, 6, 'every request is recorded');
  assert.equal(f.entries('consent.grant').length, 2);

  // Once answered, the next ask is covered by the grant and prompts nobody.
  assert.equal(await f.engine.request(ask), 'allow');
  assert.equal(channel.prompts.length, 2);
});

test('a coalesced denial reaches every asker once answered', async (t) => {
  const f = openConsent(t);
  const answer = deferred<unknown>();
  const channel = new ScriptedChannel(() => answer.promise);
  f.engine.attachChannel(channel);
  const asks = [f.engine.request(ask), f.engine.request(ask), f.engine.request(ask)];
  await new Promise((resolve) => setImmediate(resolve));
  answer.resolve({ kind: 'deny' });
  assert.deepEqual(await Promise.all(asks), ['deny', 'deny', 'deny']);
  assert.equal(channel.prompts.length, 1);
  const denials = f.entries('consent.deny');
  assert.equal(denials.length, 1);
  assert.equal(denials[0].actor, 'user');
  // After the answer, a new ask is a new prompt.
  const again = f.engine.request(ask);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(channel.prompts.length, 2);
  answer.resolve({ kind: 'deny' });
  assert.equal(await again, 'deny');
});
