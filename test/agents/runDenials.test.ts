// A run's denied calls (issue 23, item 3) from the real consent engine's ledger entries: a use tried before asking
// and then allowed is no denial; a Deny by the user, and a use still refused at the run's end, are listed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentRunEvent, DeniedCall } from '../../src-preload/contract';
import { AgentRun } from '../../src-main/node/agents/runtime/agentRun';
import { followDenials } from '../../src-main/node/agents/runtime/runDenials';
import { AGENT, openConsent, ScriptedChannel, SESSION } from '../consent/consentFixture';

function liveRun(): AgentRun {
  const run = new AgentRun({ id: 'run_denialtest01', sessionId: SESSION, agent: AGENT, prompt: 'go', state: 'Registered', outcome: 'running', startedAt: 1, endedAt: null, error: null, deniedCalls: 0, grantsGiven: 0 });
  run.lifecycle.move('Initialized', 'host');
  run.lifecycle.move('Active', 'host');
  return run;
}

const deniedOf = (run: AgentRun): DeniedCall[] => run.replay().flatMap((e: AgentRunEvent) => (e.kind === 'denied' ? [e.call] : []));
const use = { agentId: AGENT, sessionId: SESSION, capability: 'files.read', target: 'notes.txt' };
const ask = { ...use, reason: 'to read your notes', durationS: 60 };

test('tried before asking, then allowed: no denied call, one grant; the run is Completed, not partly denied', async (t) => {
  const f = openConsent(t);
  const run = liveRun();
  const following = followDenials(f.ledger, (_s, _a, call, answered) => run.refused(call, answered), (_s, _a, capability) => run.granted(capability));
  t.after(() => following.dispose());
  f.engine.attachChannel(new ScriptedChannel(() => ({ kind: 'allow_for', minutes: 5 })));
  assert.equal(f.engine.check(use).decision, 'deny', 'no grant yet');
  assert.equal((await f.engine.ask(ask)).decision, 'allow');
  // The ledger tells listeners once it commits; the runtime commits before a run ends.
  f.ledger.flush();
  run.end({ outcome: 'completed', error: null }, 2);
  assert.deepEqual(deniedOf(run), []);
  assert.equal(run.info.deniedCalls, 0);
  assert.equal(run.info.grantsGiven, 1);
});

test('the user says Deny: one denied call with what, when and why, listed at once', async (t) => {
  const f = openConsent(t);
  const run = liveRun();
  const following = followDenials(f.ledger, (_s, _a, call, answered) => run.refused(call, answered), (_s, _a, capability) => run.granted(capability));
  t.after(() => following.dispose());
  f.engine.attachChannel(new ScriptedChannel(() => ({ kind: 'deny' })));
  f.engine.check(use);
  assert.equal((await f.engine.ask(ask)).decision, 'deny');
  f.ledger.flush();
  const listed = deniedOf(run);
  assert.equal(listed.length, 1, 'the user\u2019s answer replaces the try before it');
  assert.equal(listed[0].capability, 'files.read');
  assert.equal(listed[0].reason, 'the user denied it');
  assert.equal(typeof listed[0].at, 'number');
  run.end({ outcome: 'completed', error: null }, 2);
  assert.equal(run.info.deniedCalls, 1);
  assert.equal(run.info.grantsGiven, 0);
});

test('allowed once, then a later use refused and never asked about: listed when the run ends (partly denied)', async (t) => {
  const f = openConsent(t);
  const run = liveRun();
  const following = followDenials(f.ledger, (_s, _a, call, answered) => run.refused(call, answered), (_s, _a, capability) => run.granted(capability));
  t.after(() => following.dispose());
  f.engine.attachChannel(new ScriptedChannel(() => ({ kind: 'allow_once' })));
  assert.equal((await f.engine.ask(ask)).decision, 'allow');
  assert.equal(f.engine.check(use).decision, 'allow', 'the once-grant is spent by this use');
  assert.equal(f.engine.check({ ...use, target: 'other.txt' }).decision, 'deny');
  f.ledger.flush();
  assert.deepEqual(deniedOf(run), [], 'held: the agent might still ask');
  run.end({ outcome: 'completed', error: null }, 2);
  assert.deepEqual(deniedOf(run).map((c) => c.target), ['other.txt']);
  assert.equal(run.info.deniedCalls, 1);
  assert.equal(run.info.grantsGiven, 1);
  assert.equal(run.replay().at(-1)?.kind, 'ended', 'the denied calls come before the end');
});

test('stopped by the user while it waits: the withdrawn prompt and the try before it are not denied calls', async (t) => {
  const f = openConsent(t);
  const run = liveRun();
  const following = followDenials(f.ledger, (_s, _a, call, answered) => run.refused(call, answered), (_s, _a, capability) => run.granted(capability));
  t.after(() => following.dispose());
  const stop = new AbortController();
  f.engine.attachChannel(new ScriptedChannel(() => new Promise(() => undefined)));
  f.engine.check(use);
  const asked = f.engine.ask({ ...ask, signal: stop.signal });
  run.stopping = true;
  stop.abort(new Error('the agent that asked has stopped'));
  assert.equal((await asked).decision, 'deny');
  f.ledger.flush();
  run.end({ outcome: 'stopped', error: null }, 2);
  assert.deepEqual(deniedOf(run), []);
  assert.equal(run.info.deniedCalls, 0);
});
