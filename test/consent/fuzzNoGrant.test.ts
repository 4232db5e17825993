import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CapabilityDeniedError } from '../../src-main/node/consent/consentErrors';
import type { CapabilityUse } from '../../src-main/node/consent/consentEngine';
import { recordedTarget } from '../../src-main/node/consent/recordedTarget';
import { AGENT, openConsent, SESSION } from './consentFixture';

/** A small seeded generator, so a failing run can be replayed with its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const CAPABILITIES: unknown[] = [
  'files.read', 'files.write', 'network', 'media.preview', 'codegen', 'memory', 'process.exec', 'oauth:github.repo',
  'oauth:google.drive.readonly', 'files.*', 'FILES.READ', 'network ', 'oauth:', 'admin', '', 42, null, { name: 'network' },
];
const TARGETS: unknown[] = [
  undefined, '', '.', 'README.md', 'src/index.ts', '../etc/passwd', 'src/../../x', '%2e%2e/secret', '/etc/shadow', 'C:\\x',
  'a\0b', 'api.github.com', 'https://api.github.com/repos', 'evil.com.example.org', 'example.org.', 'exаmple.org',
  'https://u:p@example.org:8443/', '127.0.0.1', '[::1]', 'http://169.254.169.254/latest', 'x'.repeat(5000), 7, {}, ['a'],
];
const METHODS: unknown[] = [undefined, 'GET', 'POST', 'put', 'DELETE', 'HEAD', 'G E T', '', 9];
const ACTIONS: unknown[] = [undefined, 'ls -la', 'rm -rf ~', 'https://api.github.com/repos/x/y/issues', 'y'.repeat(3000)];

test('500 fuzzed calls without a grant are all denied, and each denial is its own ledger row', (t) => {
  const f = openConsent(t);
  // Decoy grants for everything, but for another session and another agent: they must not leak into these calls.
  for (const capability of ['files.read', 'files.write', 'media.preview', 'codegen', 'memory', 'oauth:github.repo']) {
    const scope = capability.startsWith('files') ? '**' : null;
    f.engine.grant({ agentId: AGENT, sessionId: 'ses_decoySession0', capability, scope, durationS: 3600 }, 'user');
    f.engine.grant({ agentId: 'decoy-agent', sessionId: SESSION, capability, scope, durationS: 3600 }, 'user');
  }
  f.engine.grant({ agentId: AGENT, sessionId: 'ses_decoySession0', capability: 'network', scope: '*.github.com', durationS: 3600 }, 'user');
  f.engine.grant({ agentId: 'decoy-agent', sessionId: SESSION, capability: 'network', scope: 'api.github.com', durationS: 3600 }, 'user');

  const seed = Number(process.env.CONSENT_FUZZ_SEED ?? 20261123);
  const next = random(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const agents: unknown[] = [AGENT, AGENT, 'summariser', 'x'.repeat(300), '', undefined, 5];
  const sessions: unknown[] = [SESSION, SESSION, 'ses_fuzzOtherSess1', '', null];
  const expectedActor = (agentId: unknown) => (typeof agentId === 'string' && agentId.length > 0 && agentId.length <= 200 ? agentId : 'unknown-agent');
  const expectedSession = (sessionId: unknown) => (typeof sessionId === 'string' && sessionId.length > 0 ? sessionId : null);
  const clip = (value: unknown) => (typeof value === 'string' ? value.slice(0, 2000) : null);

  let lastSeq = f.ledger.headInfo.size;
  let denials = 0;
  const denialSeqs: number[] = [];
  for (let call = 0; call < 500; call++) {
    const use = {
      agentId: pick(agents),
      sessionId: pick(sessions),
      capability: pick(CAPABILITIES),
      target: pick(TARGETS),
      method: pick(METHODS),
      action: pick(ACTIONS),
    } as unknown as CapabilityUse;
    const what = `call ${call} (seed ${seed}): ${JSON.stringify(use)?.slice(0, 300)}`;
    const kind = call % 2 === 0 ? 'check' : 'authorize';
    if (kind === 'check') {
      assert.equal(f.engine.check(use).decision, 'deny', what);
    } else {
      assert.throws(() => f.engine.authorize(use), CapabilityDeniedError, what);
    }
    // The rows written by this call, read back from the database: exactly one denial, naming the call.
    const rows = f.ledger.after(lastSeq, 10);
    assert.equal(rows.length, 1, what);
    const [row] = rows;
    assert.equal(row.type, 'consent.deny', what);
    assert.equal(row.actor, expectedActor(use.agentId), what);
    assert.equal(row.sessionId, expectedSession(use.sessionId), what);
    assert.equal(row.payload.capability, clip(use.capability), what);
    assert.equal(row.payload.target, recordedTarget(use.target), what);
    assert.equal(typeof row.payload.reason, 'string', what);
    assert.ok(String(row.payload.reason).length > 0, what);
    lastSeq = row.seq;
    denialSeqs.push(row.seq);
    denials++;
  }
  assert.equal(denials, 500);
  assert.deepEqual(f.engine.list(SESSION).map((g) => g.agentId), Array(7).fill('decoy-agent'), 'no grant was made along the way');

  // On disk, after a restart: the same 500 rows.
  f.reopen();
  const stored = f.db
    .prepare("SELECT seq FROM audit_ledger WHERE type = 'consent.deny' ORDER BY seq")
    .all()
    .map((r) => (r as { seq: number }).seq);
  assert.deepEqual(stored, denialSeqs);
});

test('fuzzed consent requests without a channel are all denied, each request and denial recorded', async (t) => {
  const f = openConsent(t);
  const next = random(7);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  let lastSeq = f.ledger.headInfo.size;
  for (let call = 0; call < 100; call++) {
    const ask = {
      agentId: pick([AGENT, 'summariser', '', undefined]),
      sessionId: pick([SESSION, 'ses_fuzzOtherSess1', '']),
      capability: pick(CAPABILITIES),
      target: pick(TARGETS),
      method: pick(METHODS),
      action: pick(ACTIONS),
      reason: pick(['need it', '', 'r'.repeat(3000), undefined]),
      durationS: pick([60, 0, -1, 1.5, 1e9, undefined]),
      scope: pick([undefined, '**', 'src/**', '*.github.com', '../**']),
    } as never;
    const what = `request ${call}: ${JSON.stringify(ask).slice(0, 300)}`;
    assert.equal(await f.engine.request(ask), 'deny', what);
    const rows = f.ledger.after(lastSeq, 10);
    assert.deepEqual(rows.map((r) => r.type), ['consent.request', 'consent.deny'], what);
    lastSeq = rows[1].seq;
  }
  assert.deepEqual(f.engine.list(), []);
});
