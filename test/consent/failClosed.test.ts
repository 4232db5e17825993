import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsentPrompt } from '../../src-preload/contract';
import { UiConsentChannel } from '../../src-main/node/consent/uiConsentChannel';
import { AGENT, deferred, openConsent, ScriptedChannel, SESSION } from './consentFixture';

const ask = { agentId: AGENT, sessionId: SESSION, capability: 'files.write', target: 'out.txt', reason: 'save the result', durationS: 60 };

test('no consent channel attached: the request is denied, and both request and denial are in the ledger', async (t) => {
  const f = openConsent(t);
  assert.equal(await f.engine.request(ask), 'deny');
  assert.deepEqual(f.entries().map((e) => e.type), ['consent.request', 'consent.deny']);
  assert.match(String(f.entries('consent.deny')[0].payload.reason), /no consent channel/);
  assert.equal(f.engine.check(ask).decision, 'deny');
});

test('a detached channel no longer answers: denied', async (t) => {
  const f = openConsent(t);
  const attached = f.engine.attachChannel(new ScriptedChannel(() => ({ kind: 'allow_for', minutes: 5 })));
  attached.dispose();
  assert.equal(await f.engine.request(ask), 'deny');
});

test('a failing channel (rejecting, or throwing before it returns) means deny', async (t) => {
  const f = openConsent(t);
  f.engine.attachChannel(new ScriptedChannel(() => Promise.reject(new Error('renderer crashed'))));
  assert.equal(await f.engine.request(ask), 'deny');
  assert.match(String(f.entries('consent.deny').at(-1)!.payload.reason), /channel failed: renderer crashed/);
  f.engine.attachChannel({
    prompt() {
      throw new Error('port closed');
    },
  });
  assert.equal(await f.engine.request({ ...ask, target: 'other.txt' }), 'deny');
  assert.match(String(f.entries('consent.deny').at(-1)!.payload.reason), /port closed/);
  assert.deepEqual(f.engine.list(), []);
});

test('unreadable answers are denials', async (t) => {
  const f = openConsent(t);
  const unreadable: unknown[] = [
    undefined,
    null,
    'allow',
    true,
    1,
    {},
    { kind: 'allow' },
    { kind: 'ALLOW_ONCE' },
    { kind: 'allow_for' },
    { kind: 'allow_for', minutes: 0 },
    { kind: 'allow_for', minutes: -5 },
    { kind: 'allow_for', minutes: 1.5 },
    { kind: 'allow_for', minutes: '10' },
    { kind: 'allow_for', minutes: 100_000 },
    { kind: 'allow_for', minutes: Number.NaN },
    [{ kind: 'allow_once' }],
  ];
  let i = 0;
  const channel = new ScriptedChannel(() => unreadable[i]);
  f.engine.attachChannel(channel);
  for (; i < unreadable.length; i++) {
    assert.equal(await f.engine.request({ ...ask, target: `file-${i}.txt` }), 'deny', JSON.stringify(unreadable[i]));
  }
  assert.equal(channel.prompts.length, unreadable.length);
  assert.equal(f.entries('consent.deny').length, unreadable.length);
  assert.ok(f.entries('consent.deny').every((e) => /could not be read/.test(String(e.payload.reason))));
  assert.deepEqual(f.engine.list(), []);
});

test('an unanswered prompt times out as a denial and the channel is told to take the card away', async (t) => {
  const f = openConsent(t, { promptTimeoutMs: 30_000 });
  const channel = new ScriptedChannel(() => new Promise(() => undefined));
  f.engine.attachChannel(channel);
  const answer = f.engine.request(ask);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(channel.prompts.length, 1);
  assert.equal(channel.prompts[0].deadline - channel.prompts[0].askedAt, 30_000);
  f.clock.advance(30_000);
  assert.equal(await answer, 'deny');
  assert.equal(channel.signals[0].aborted, true);
  assert.match(String(f.entries('consent.deny')[0].payload.reason), /not answered: no answer within 30 s/);
});

test('the UI channel shows a prompt to the consent cards watching its session, and settles it with their answer', async (t) => {
  const f = openConsent(t);
  const cards = new UiConsentChannel();
  f.engine.attachChannel(cards);

  const shown = deferred<ConsentPrompt>();
  const events: string[] = [];
  const watching = cards.watch(SESSION, (event) => {
    events.push(event.kind);
    if (event.kind === 'pending') shown.resolve(event.prompt);
  });
  t.after(() => watching.dispose());
  const answer = f.engine.ask({ ...ask, target: 'second.txt' });
  const prompt = await shown.promise;
  assert.equal(prompt.reason, 'save the result');
  assert.equal(prompt.scope, 'second.txt');
  cards.answer(prompt.id, { kind: 'allow_for', minutes: 10 });
  const outcome = await answer;
  assert.equal(outcome.decision, 'allow');
  assert.equal(outcome.grant!.expiresAt - outcome.grant!.grantedAt, 10 * 60_000);
  assert.deepEqual(events, ['pending', 'settled']);
  assert.throws(() => cards.answer(prompt.id, { kind: 'deny' }), /not waiting for an answer/);
});

test('bad requests from an agent are denied with a reason it can fix, and recorded', async (t) => {
  const f = openConsent(t);
  f.engine.attachChannel(new ScriptedChannel(() => ({ kind: 'allow_once' })));
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ reason: '' }, /needs a reason/],
    [{ durationS: 0 }, /duration_s/],
    [{ durationS: 1e9 }, /duration_s/],
    [{ capability: 'files.everything' }, /unknown capability/],
    [{ target: '../x' }, /contains "\.\."/],
    [{ scope: 'lib/**' }, /does not cover the target/],
    [{ capability: 'network', target: undefined }, /must name its host/],
  ];
  for (const [change, reason] of cases) {
    const outcome = await f.engine.ask({ ...ask, ...change } as typeof ask);
    assert.equal(outcome.decision, 'deny');
    assert.match(outcome.reason, reason);
  }
  assert.equal(f.entries('consent.request').length, cases.length);
  assert.equal(f.entries('consent.deny').length, cases.length);
});

test('credentials in a URL never reach the ledger: user info, query and fragment are withheld', async (t) => {
  const f = openConsent(t);
  const url = 'https://alice:hunter2@api.example.org/v1/items?api_key=sk_live_abcdef123456#otp=991122';
  f.engine.check({ agentId: AGENT, sessionId: SESSION, capability: 'network', target: url, method: 'POST', action: url });
  await f.engine.request({ agentId: AGENT, sessionId: SESSION, capability: 'network', target: url, method: 'GET', reason: 'list items', durationS: 60 });
  const text = JSON.stringify(f.entries());
  for (const secret of ['alice', 'hunter2', 'api_key', 'sk_live_abcdef123456', 'otp', '991122']) assert.ok(!text.includes(secret), secret);
  assert.equal(f.entries('consent.deny')[0].payload.target, 'https://[REDACTED]@api.example.org/v1/items?[query withheld]#[fragment withheld]');
  assert.equal(f.entries('consent.deny')[0].payload.action, 'POST https://[REDACTED]@api.example.org/v1/items?[query withheld]#[fragment withheld]');
});

test('an answer whose fields throw when read is a denial, not a crash', async (t) => {
  const f = openConsent(t);
  const hostile = new Proxy({}, { get: () => { throw new Error('gotcha'); }, has: () => { throw new Error('gotcha'); } });
  f.engine.attachChannel(new ScriptedChannel(() => hostile));
  assert.equal(await f.engine.request(ask), 'deny');
});

test('shutting down with a prompt pending denies it', async (t) => {
  const f = openConsent(t);
  f.engine.attachChannel(new ScriptedChannel(() => new Promise(() => undefined)));
  const pending = f.engine.request(ask);
  await new Promise((resolve) => setImmediate(resolve));
  f.engine.dispose();
  assert.equal(await pending, 'deny');
  assert.match(String(f.entries('consent.deny')[0].payload.reason), /shutting down/);
});
