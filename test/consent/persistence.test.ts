import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CapabilityRevokedError } from '../../src-main/node/consent/consentErrors';
import { AGENT, openConsent, SESSION } from './consentFixture';

const base = { agentId: AGENT, sessionId: SESSION };

test('grants survive a restart; those that ran out meanwhile are ended (and recorded) instead', (t) => {
  const f = openConsent(t);
  const long = f.engine.grant({ ...base, capability: 'files.read', scope: 'docs/**', durationS: 3600 }, 'user');
  const short = f.engine.grant({ ...base, capability: 'memory', durationS: 60 }, 'user');
  const revoked = f.engine.grant({ ...base, capability: 'codegen', durationS: 3600 }, 'user');
  const once = f.engine.grant({ ...base, capability: 'media.preview', durationS: null }, 'user');
  f.engine.revoke(revoked.id, 'user');
  assert.equal(f.engine.check({ ...base, capability: 'media.preview' }).decision, 'allow');
  f.ledger.flush();

  // The host is down for two minutes.
  f.reopen();
  f.clock.jump(120_000);
  f.reopen();

  assert.deepEqual(f.engine.list(SESSION).map((g) => g.id), [long.id], 'the used once-grant is not listed: the run that spent it ended with the host');
  assert.ok(once.id);
  assert.equal(f.engine.check({ ...base, capability: 'files.read', target: 'docs/guide.md' }).decision, 'allow');
  assert.equal(f.engine.check({ ...base, capability: 'files.read', target: 'src/a.ts' }).decision, 'deny', 'the scope survived too');
  assert.equal(f.engine.check({ ...base, capability: 'memory' }).code, 'expired');
  assert.equal(f.engine.check({ ...base, capability: 'media.preview' }).code, 'no_grant', 'a spent once-grant does not come back');
  assert.throws(() => f.engine.authorize({ ...base, capability: 'codegen' }), CapabilityRevokedError);

  const expiries = f.entries('consent.expire');
  assert.deepEqual(expiries.map((e) => e.payload.grantId), [short.id]);
  assert.match(String(expiries[0].payload.reason), /while the host was not running/);

  // The one still live keeps its expiry timer across the restart.
  f.clock.advance(3600_000);
  assert.equal(f.engine.check({ ...base, capability: 'files.read', target: 'docs/guide.md' }).code, 'expired');
  assert.deepEqual(f.entries('consent.expire').map((e) => e.payload.grantId), [short.id, long.id]);
});

test('grant rows and their ledger entries commit together', (t) => {
  const f = openConsent(t);
  const grant = f.engine.grant({ ...base, capability: 'memory', durationS: 60 }, 'user');
  const row = f.db.prepare('SELECT status, expires_at FROM consent_grants WHERE id = ?').get(grant.id) as { status: string; expires_at: number };
  assert.deepEqual(row, { status: 'live', expires_at: grant.expiresAt });
  const entry = f.entries('consent.grant');
  assert.equal(entry.length, 1);
  assert.deepEqual(
    { grantId: entry[0].payload.grantId, capability: entry[0].payload.capability, durationS: entry[0].payload.durationS, actor: entry[0].actor, sessionId: entry[0].sessionId },
    { grantId: grant.id, capability: 'memory', durationS: 60, actor: 'user', sessionId: SESSION },
  );
});
