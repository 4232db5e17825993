import assert from 'node:assert/strict';
import { createWriteStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { test } from 'node:test';
import { CapabilityRevokedError, GrantNotFoundError } from '../../src-main/node/consent/consentErrors';
import type { RevokeEvent } from '../../src-main/node/consent/consentEngine';
import { tempDir } from '../helpers';
import { AGENT, deferred, openConsent, SESSION } from './consentFixture';

const base = { agentId: AGENT, sessionId: SESSION };

test('revoking during a host-side fetch aborts it at once, the server sees the connection go, the next use is capability_revoked', async (t) => {
  const f = openConsent(t);
  const arrived = deferred<IncomingMessage>();
  const closed = deferred<void>();
  // A server that takes the request and never answers: the fetch is in flight until something stops it.
  const server = createServer((req) => {
    req.socket.on('close', () => closed.resolve());
    arrived.resolve(req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.unref();
  const { port } = server.address() as AddressInfo;

  const grant = f.engine.grant({ ...base, capability: 'network', scope: '127.0.0.1', durationS: 600 }, 'user');
  const revokes: RevokeEvent[] = [];
  f.engine.onDidRevoke((event) => revokes.push(event));
  const use = { ...base, capability: 'network', target: `http://127.0.0.1:${port}/slow`, method: 'GET' };
  const { grantId, signal } = f.engine.authorize(use);
  assert.equal(grantId, grant.id);
  const inFlight = fetch(use.target, { signal });
  await arrived.promise;

  const ended = f.engine.revoke(grant.id, 'user');
  // Effective synchronously: the signal is already aborted when revoke returns.
  assert.equal(signal.aborted, true);
  assert.equal(ended.status, 'revoked');
  assert.deepEqual(revokes.map((e) => [e.grant.id, e.reason, e.actor]), [[grant.id, 'revoked', 'user']]);
  await assert.rejects(inFlight, (error: unknown) => {
    assert.ok(error instanceof CapabilityRevokedError);
    assert.equal(error.code, 'capability_revoked');
    return true;
  });
  await closed.promise;

  assert.throws(() => f.engine.authorize(use), (error: unknown) => error instanceof CapabilityRevokedError && error.grantId === grant.id);
  assert.equal(f.engine.check(use).code, 'revoked');
  // Work that had not started yet under the grant never starts.
  assert.equal(f.engine.signalFor(grant.id).aborted, true);

  const entry = f.entries('consent.revoke');
  assert.equal(entry.length, 1);
  assert.equal(entry[0].actor, 'user');
  assert.equal(entry[0].sessionId, SESSION);
  assert.equal(entry[0].payload.grantId, grant.id);
  assert.equal(entry[0].payload.capability, 'network');
  assert.equal(entry[0].payload.scope, '127.0.0.1');
});

test('revoking during a file write stops the write', async (t) => {
  const f = openConsent(t);
  const dir = tempDir('consent-write');
  t.after(dir.cleanup);
  const grant = f.engine.grant({ ...base, capability: 'files.write', scope: 'out/**', durationS: 600 }, 'user');
  const { signal } = f.engine.authorize({ ...base, capability: 'files.write', target: 'out/big.bin' });
  const file = join(dir.path, 'big.bin');
  let chunks = 0;
  // An endless source: only the revocation ends this write.
  const source = Readable.from(
    (async function* () {
      for (;;) {
        chunks++;
        if (chunks === 50) f.engine.revoke(grant.id, 'user');
        yield Buffer.alloc(64 * 1024);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })(),
  );
  await assert.rejects(pipeline(source, createWriteStream(file), { signal }), (error: Error) => {
    assert.equal(error.name, 'AbortError');
    assert.ok(error.cause instanceof CapabilityRevokedError);
    return true;
  });
  assert.ok(chunks < 60, `the write went on for ${chunks} chunks after being revoked at 50`);
  assert.ok(statSync(file).size <= 60 * 64 * 1024);
});

test('revoke is idempotent, and an unknown grant id is a typed not-found', (t) => {
  const f = openConsent(t);
  const grant = f.engine.grant({ ...base, capability: 'memory', durationS: 60 }, 'user');
  f.engine.revoke(grant.id, 'user');
  assert.equal(f.engine.revoke(grant.id, 'user').status, 'revoked');
  assert.equal(f.entries('consent.revoke').length, 1);
  assert.throws(() => f.engine.revoke('grant_doesNotExist1', 'user'), GrantNotFoundError);
});
