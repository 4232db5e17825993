import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CapabilityRevokedError } from '../../src-main/node/consent/consentErrors';
import type { RevokeEvent } from '../../src-main/node/consent/consentEngine';
import { AGENT, openConsent, ScriptedChannel, SESSION } from './consentFixture';

const use = { agentId: AGENT, sessionId: SESSION, capability: 'files.write', target: 'src/index.ts' };

test('a 60 s grant allows at 59 s and is gone at 61 s: the agent is asked again and the user is prompted anew', async (t) => {
  const f = openConsent(t);
  const channel = new ScriptedChannel(() => ({ kind: 'allow_for', minutes: 1 }));
  f.engine.attachChannel(channel);
  const ended: RevokeEvent[] = [];
  f.engine.onDidRevoke((event) => ended.push(event));

  assert.equal(await f.engine.request({ ...use, reason: 'write the scaffold', durationS: 60 }), 'allow');
  assert.equal(channel.prompts.length, 1);
  const grant = f.engine.list(SESSION)[0];
  const signal = f.engine.signalFor(grant.id);

  f.clock.advance(59_000);
  assert.equal(f.engine.check(use).decision, 'allow');
  assert.equal(signal.aborted, false);

  f.clock.advance(2_000);
  // The expiry timer fired on its own: the grant ended, work tied to it stopped, the panel heard of it.
  assert.deepEqual(ended.map((e) => [e.grant.id, e.reason]), [[grant.id, 'expired']]);
  assert.ok(signal.reason instanceof CapabilityRevokedError);
  assert.equal(signal.reason.code, 'capability_revoked');
  assert.deepEqual(f.engine.list(SESSION), []);

  const after = f.engine.check(use);
  assert.equal(after.decision, 'deny');
  assert.equal(after.code, 'expired');
  assert.throws(() => f.engine.authorize(use), (error: unknown) => {
    assert.ok(error instanceof CapabilityRevokedError);
    assert.equal(error.toGuestError().code, 'capability_revoked');
    assert.match(error.toGuestError().hint, /ask again .* or use the fallback path/);
    return true;
  });

  assert.equal(await f.engine.request({ ...use, reason: 'write the scaffold', durationS: 60 }), 'allow');
  assert.equal(channel.prompts.length, 2, 'the user is asked again after expiry');

  const expiries = f.entries('consent.expire');
  assert.equal(expiries.length, 1);
  assert.equal(expiries[0].sessionId, SESSION);
  assert.equal(expiries[0].payload.grantId, grant.id);
  assert.equal(expiries[0].payload.capability, 'files.write');
  assert.equal(expiries[0].payload.durationS, 60);
});

test('an expiry timer that fires late does not stretch the grant: the clock decides at the use', (t) => {
  const f = openConsent(t);
  const grant = f.engine.grant({ agentId: AGENT, sessionId: SESSION, capability: 'memory', durationS: 60 }, 'user');
  f.clock.jump(60_000);
  const result = f.engine.check({ agentId: AGENT, sessionId: SESSION, capability: 'memory' });
  assert.equal(result.decision, 'deny');
  assert.equal(result.code, 'expired');
  assert.equal(f.entries('consent.expire')[0].payload.grantId, grant.id);
});

test('"Allow once" covers one use; the next use is denied and has to ask again', async (t) => {
  const f = openConsent(t);
  f.engine.attachChannel(new ScriptedChannel(() => ({ kind: 'allow_once' })));
  const outcome = await f.engine.ask({ ...use, reason: 'write one file', durationS: 30 });
  assert.equal(outcome.grant?.once, true);
  assert.equal(f.engine.check(use).decision, 'allow');
  const second = f.engine.check(use);
  assert.equal(second.decision, 'deny');
  assert.equal(second.code, 'no_grant');
  // The spent grant still stops its in-flight work if the user revokes it.
  const signal = f.engine.signalFor(outcome.grant!.id);
  f.engine.revoke(outcome.grant!.id, 'user');
  assert.equal(signal.aborted, true);
});
