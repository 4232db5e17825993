import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsentPrompt, ConsentPromptEvent } from '../../src-preload/contract';
import { PromptDeadline } from '../../src-main/node/consent/promptDeadline';
import { DEFAULT_PROMPT_TIMEOUT_MS, parsePromptTimeout, promptTimeoutFromEnv } from '../../src-main/node/consent/promptTimeoutSetting';
import { UiConsentChannel } from '../../src-main/node/consent/uiConsentChannel';
import { AGENT, openConsent, ScriptedChannel, SESSION } from './consentFixture';
import { FakeClock } from './fakeClock';

const ask = { agentId: AGENT, sessionId: SESSION, capability: 'files.write', target: 'out.txt', reason: 'save the result', durationS: 60 };
const MINUTE = 60_000;

/** Lets the engine's promise chain reach the channel. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A page watching the session's consent cards: the prompts it was sent, newest last. */
function watchCards(cards: UiConsentChannel) {
  const shown: ConsentPrompt[] = [];
  const settled: string[] = [];
  const watching = cards.watch(SESSION, (event: ConsentPromptEvent) => {
    if (event.kind === 'pending') shown.push({ ...event.prompt });
    else settled.push(event.promptId);
  });
  return { shown, settled, close: () => watching.dispose() };
}

test('the countdown runs only while running: paused time does not count, and it expires once the whole budget has run', () => {
  const clock = new FakeClock();
  let expired = 0;
  const deadline = new PromptDeadline(clock, 10 * MINUTE, () => expired++);
  assert.equal(deadline.deadline, null, 'not started: no deadline');
  clock.advance(60 * MINUTE);
  assert.equal(expired, 0);

  deadline.run();
  assert.equal(deadline.deadline, clock.now() + 10 * MINUTE);
  clock.advance(4 * MINUTE);
  deadline.pause();
  assert.equal(deadline.deadline, null);
  assert.equal(deadline.remaining(), 6 * MINUTE);
  clock.advance(24 * 60 * MINUTE);
  assert.equal(expired, 0, 'a day unwatched is not an answer');

  deadline.run();
  deadline.run(); // idempotent: a second watcher does not restart it
  assert.equal(deadline.deadline, clock.now() + 6 * MINUTE);
  clock.advance(6 * MINUTE - 1);
  assert.equal(expired, 0);
  clock.advance(1);
  assert.equal(expired, 1);
  deadline.run();
  clock.advance(60 * MINUTE);
  assert.equal(expired, 1, 'an expired deadline never fires again');
});

test('a disposed (answered) deadline never fires', () => {
  const clock = new FakeClock();
  let expired = 0;
  const deadline = new PromptDeadline(clock, MINUTE, () => expired++);
  deadline.run();
  deadline.dispose();
  deadline.run();
  clock.advance(10 * MINUTE);
  assert.equal(expired, 0);
});

test('a prompt of a session no page watches is never denied for it: it waits, and the page that opens later gets it with the whole budget', async (t) => {
  const f = openConsent(t, { promptTimeoutMs: 5 * MINUTE });
  const cards = new UiConsentChannel();
  f.engine.attachChannel(cards);
  let outcome: string | undefined;
  void f.engine.request(ask).then((decision) => (outcome = decision));
  await settle();
  f.clock.advance(3 * 60 * MINUTE);
  await settle();
  assert.equal(outcome, undefined, 'still waiting after three hours without a page');
  assert.equal(f.entries('consent.deny').length, 0);

  const page = watchCards(cards);
  t.after(page.close);
  assert.equal(page.shown.length, 1);
  assert.equal(page.shown[0].deadline, f.clock.now() + 5 * MINUTE, 'the deadline counts from when a page shows it');
  cards.answer(page.shown[0].id, { kind: 'allow_once' });
  await settle();
  assert.equal(outcome, 'allow');
});

test('closing the page pauses the countdown where it was; reopening resumes it, and it denies only after the budget ran while shown', async (t) => {
  const f = openConsent(t, { promptTimeoutMs: 10 * MINUTE });
  const cards = new UiConsentChannel();
  f.engine.attachChannel(cards);
  const first = watchCards(cards);
  let outcome: string | undefined;
  void f.engine.request(ask).then((decision) => (outcome = decision));
  await settle();
  assert.equal(first.shown.length, 1);
  assert.equal(first.shown[0].deadline, first.shown[0].askedAt + 10 * MINUTE);
  f.clock.advance(7 * MINUTE);
  first.close();

  f.clock.advance(60 * MINUTE);
  await settle();
  assert.equal(outcome, undefined, 'closed past its old deadline: still pending');

  const second = watchCards(cards);
  const other = watchCards(cards);
  t.after(other.close);
  assert.equal(second.shown[0].deadline, f.clock.now() + 3 * MINUTE, 'the three minutes it had left');
  second.close(); // one of two pages goes: the other still watches, so the clock runs on
  f.clock.advance(3 * MINUTE);
  await settle();
  assert.equal(outcome, 'deny');
  assert.match(String(f.entries('consent.deny')[0].payload.reason), /not answered: no answer within 600 s/);
  assert.deepEqual(other.settled, [other.shown[0].id], 'the card is taken away');
});

test('the default deadline is 30 minutes, for a channel that does not say who watches as for the UI', async (t) => {
  const f = openConsent(t);
  const channel = new ScriptedChannel(() => new Promise(() => undefined));
  f.engine.attachChannel(channel);
  void f.engine.request(ask);
  await settle();
  assert.equal(channel.prompts[0].deadline - channel.prompts[0].askedAt, 30 * MINUTE);
  assert.equal(DEFAULT_PROMPT_TIMEOUT_MS, 30 * MINUTE);
});

test('the prompt timeout setting: 90s, 30m, 2h; anything else says how to write it', () => {
  assert.deepEqual(parsePromptTimeout('90s', '--consent-timeout'), { ok: true, ms: 90_000 });
  assert.deepEqual(parsePromptTimeout('30m', '--consent-timeout'), { ok: true, ms: 30 * MINUTE });
  assert.deepEqual(parsePromptTimeout(' 2H ', '--consent-timeout'), { ok: true, ms: 120 * MINUTE });
  for (const bad of ['', '30', 'm', '-5m', '1.5h', '0s', '25h', '30 minutes', '1e3s']) {
    const parsed = parsePromptTimeout(bad, '--consent-timeout');
    assert.equal(parsed.ok, false, bad);
    assert.match((parsed as { reason: string }).reason, /^--consent-timeout must be a duration from 1s to 24h written like 90s, 30m or 2h/);
  }
  assert.equal(promptTimeoutFromEnv({}), DEFAULT_PROMPT_TIMEOUT_MS);
  assert.equal(promptTimeoutFromEnv({ OMNI_CONSENT_TIMEOUT: '45m' }), 45 * MINUTE);
  assert.throws(() => promptTimeoutFromEnv({ OMNI_CONSENT_TIMEOUT: 'forever' }), /OMNI_CONSENT_TIMEOUT must be a duration/);
});
