// An "Allow once" spent by a use that lasts (a credential handle issued for one run): claim() spends it and the
// holder goes on using it through authorizeHeld() until release(), past the once-window; nobody else can use it;
// a revocation still cuts the holder at once; a deny rule made meanwhile still refuses; the ledger says who spent it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CapabilityDeniedError, CapabilityRevokedError } from '../../src-main/node/consent/consentErrors';
import { AGENT, openConsent, SESSION } from './consentFixture';

const use = { agentId: AGENT, sessionId: SESSION, capability: 'oauth:anthropic.api' };
const HOLDER = 'credential handle hdl_test';

test('a claimed once-grant covers its holder for as long as it holds it, and nobody else', (t) => {
  const f = openConsent(t, { onceWindowMs: 60_000 });
  const grant = f.engine.grant({ ...use, durationS: null }, 'user');
  const claimed = f.engine.claim(use, HOLDER);
  assert.deepEqual([claimed.grantId, claimed.once], [grant.id, true]);

  // Spent for everyone else: a plain check, or another holder, finds nothing.
  assert.equal(f.engine.check(use).decision, 'deny');
  assert.throws(() => f.engine.authorizeHeld(use, 'credential handle hdl_other'), CapabilityDeniedError);
  // The holder's uses go on, past the once-window (a run may outlast it).
  f.clock.advance(10 * 60_000);
  for (let i = 0; i < 3; i++) assert.equal(f.engine.authorizeHeld(use, HOLDER).grantId, grant.id);
  assert.equal(claimed.signal.aborted, false);
  assert.deepEqual(f.engine.list(SESSION).map((g) => [g.id, g.status]), [[grant.id, 'used']], 'listed (and revocable) while held');

  const [spent] = f.entries('consent.use');
  assert.deepEqual([spent.payload.grantId, spent.payload.heldBy, spent.actor], [grant.id, HOLDER, AGENT]);

  // Released (the run ended): gone from the list, and the holder is refused too.
  f.engine.release(grant.id, HOLDER);
  assert.deepEqual(f.engine.list(SESSION), []);
  assert.throws(() => f.engine.authorizeHeld(use, HOLDER), CapabilityDeniedError);
  assert.equal(claimed.signal.aborted, false, 'a release is not a revocation: nothing is cut');
  assert.equal(f.entries('consent.revoke').length, 0);
});

test('revoking a held once-grant aborts its holder at once; a deny rule made meanwhile refuses it', (t) => {
  const f = openConsent(t);
  const first = f.engine.grant({ ...use, durationS: null }, 'user');
  const claimed = f.engine.claim(use, HOLDER);
  f.engine.revoke(first.id, 'user');
  assert.ok(claimed.signal.aborted);
  assert.ok(claimed.signal.reason instanceof CapabilityRevokedError);
  assert.throws(() => f.engine.authorizeHeld(use, HOLDER), CapabilityRevokedError);
  assert.equal(f.entries('consent.revoke').at(-1)?.payload.grantId, first.id);

  f.engine.grant({ ...use, durationS: null }, 'user');
  f.engine.claim(use, 'credential handle hdl_second');
  f.engine.addRule({ effect: 'deny', capability: use.capability }, 'user');
  assert.throws(() => f.engine.authorizeHeld(use, 'credential handle hdl_second'), CapabilityDeniedError);
});

test('a timed grant is not spent by a claim: every holder and every check goes on using it', (t) => {
  const f = openConsent(t);
  const grant = f.engine.grant({ ...use, durationS: 600 }, 'user');
  assert.equal(f.engine.claim(use, HOLDER).once, false);
  assert.equal(f.engine.claim(use, 'credential handle hdl_other').grantId, grant.id);
  assert.equal(f.engine.authorizeHeld(use, HOLDER).grantId, grant.id);
  assert.equal(f.engine.check(use).decision, 'allow');
  assert.equal(f.entries('consent.use').length, 0);
  f.engine.release(grant.id, HOLDER);
  assert.equal(f.engine.check(use).decision, 'allow', 'releasing a timed grant does nothing');
});
