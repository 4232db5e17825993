// Last 4, Test and Rotate (issue 23) through the real host and its WebSocket, with the REAL OS keychain (a private
// gnome-keyring under dbus-run-session when the tests run without a desktop session), a local stand-in for a model
// API that checks the key it receives, and a real authorization server (oidc-provider on 127.0.0.1): the hint is the
// last 4 characters and nothing more, anywhere (answers, ledger, SQLite); Test asks the provider without revealing
// the key and says why it failed; Rotate replaces the key in place, so a handle issued before keeps working with the
// new key; an OAuth Test refreshes the tokens, and after the user revoked the app at the provider it fails and says so.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { Contract } from '../../src-preload/contract';
import type { RpcClient } from '../../src-preload/rpc';
import { credentialAccount } from '../../src-main/node/vault/credentialVault';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { tempDir, waitFor } from '../helpers';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { connectClient, startTestHost, type TestHost } from '../server/connect';
import { startFakeUpstream, type FakeUpstream } from './fakeUpstream';
import { startOidcTestServer, type OidcTestServer } from './oidcTestServer';
import { TestBrowser } from './testBrowser';

/**
 * A fresh key of symbols that ids, hashes and JSON never string together (so finding 5 of its characters in a row
 * anywhere means it leaked, not chance).
 */
function oddKey(prefix: string): string {
  const alphabet = '~^!*QXZJ';
  return `${prefix}${[...randomBytes(32)].map((byte) => alphabet[byte % alphabet.length]).join('')}`;
}
const FIRST_KEY = oddKey('k1~');
const SECOND_KEY = oddKey('k2~');

/** Every 5-character piece of `key`: none may appear where at most the last 4 characters are allowed. */
function piecesOf(key: string): string[] {
  return Array.from({ length: key.length - 4 }, (_, i) => key.slice(i, i + 5));
}

/** The text of every row of every table of the host's database (ledger included). */
function everyRowAsText(dbFile: string): string {
  const db = new Database(dbFile, { readonly: true });
  try {
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    return tables.map(({ name }) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())).join('\n');
  } finally {
    db.close();
  }
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 120_000);
} else {
  describe('last 4, Test and Rotate over the bridge with a real keychain', () => {
    let upstream: FakeUpstream;
    let oidc: OidcTestServer;
    let host: TestHost;
    let client: RpcClient<Contract>;
    const home = tempDir('home');
    const answers: string[] = [];
    const call = async <T>(answer: Promise<T>): Promise<T> => {
      const value = await answer;
      answers.push(JSON.stringify(value));
      return value;
    };
    let connectionId = '';

    before(async () => {
      upstream = await startFakeUpstream();
      upstream.accept(FIRST_KEY, 'first');
      oidc = await startOidcTestServer({ intervalS: 1 });
      host = await startTestHost(home.path, 0, 'os');
      client = await connectClient(host.server);
      const added = await call(client.call('credentials.addApiKey', { provider: 'openai-compatible', apiKey: FIRST_KEY, label: 'Local', baseUrl: `${upstream.origin}/v1` }));
      connectionId = added.id;
    });

    after(async () => {
      client.dispose();
      await host.cleanup();
      await upstream.close();
      await oidc.close();
      home.cleanup();
    });

    it('shows the last 4 characters of a key, and nothing for a key under 12 characters', async () => {
      assert.deepEqual(await call(client.call('credentials.keyHint', { connectionId })), { hint: `…${FIRST_KEY.slice(-4)}` });
      const short = await call(client.call('credentials.addApiKey', { provider: 'openai-compatible', apiKey: 'abcdefghijk', baseUrl: `${upstream.origin}/v1` }));
      assert.deepEqual(await call(client.call('credentials.keyHint', { connectionId: short.id })), { hint: null });
      await client.call('credentials.disconnect', { connectionId: short.id });
    });

    it('Test sends the key only to the API and says it works', async () => {
      const before = upstream.seen.length;
      const check = await call(client.call('credentials.test', { connectionId }));
      assert.equal(check.outcome, 'ok', check.message);
      assert.equal(check.method, 'test_request');
      assert.match(check.message, /accepted the key \(GET \/v1\/models answered 200\)/);
      assert.ok(check.checkedAt <= Date.now() && check.durationMs >= 0);
      assert.deepEqual(upstream.seen.slice(before).map((r) => [r.method, r.path]), [['GET', '/v1/models']]);
    });

    it('Rotate refuses an empty key and the key already stored, with what to do', async () => {
      await assert.rejects(client.call('credentials.rotateKey', { connectionId, apiKey: '   ' }), /the new API key is empty; paste the whole new key/);
      await assert.rejects(client.call('credentials.rotateKey', { connectionId, apiKey: FIRST_KEY }), /that is the key already stored/);
    });

    it('Rotate replaces the key in place: same id, new last 4, the old value gone from the keychain, a handle keeps working', async () => {
      const services = host.server.services;
      const sessionId = 'ses_upkeep00001';
      const capability = 'oauth:openai-compatible.api';
      services.consent.grant({ agentId: 'coder', sessionId, capability, durationS: 600 }, 'user');
      const { record } = services.credentials.connections.handles.issue({ agentId: 'coder', sessionId, capability });

      const rotated = await call(client.call('credentials.rotateKey', { connectionId, apiKey: SECOND_KEY }));
      assert.equal(rotated.id, connectionId);
      assert.equal(rotated.status, 'connected');
      assert.deepEqual(await call(client.call('credentials.keyHint', { connectionId })), { hint: `…${SECOND_KEY.slice(-4)}` });
      const stored = (await (await openKeychain()).get(credentialAccount(connectionId)))!.expose();
      assert.ok(stored.includes(SECOND_KEY) && !stored.includes(FIRST_KEY), 'the keychain entry holds the new key only');
      // The handle issued before the rotation is still the connection's, and what it now carries is the new key.
      assert.equal(services.credentials.connections.handles.list(connectionId).some((h) => h.handleId === record.handleId), true);
      assert.ok((await services.credentials.connections.credentialFor(connectionId)).value.expose() === SECOND_KEY, 'the connection uses the new key');

      // The stand-in does not know the new key yet: Test fails and says why.
      const refused = await call(client.call('credentials.test', { connectionId }));
      assert.equal(refused.outcome, 'failed');
      assert.match(refused.message, /refused the key \(HTTP 401\)/);
      upstream.accept(SECOND_KEY, 'second');
      assert.equal((await call(client.call('credentials.test', { connectionId }))).outcome, 'ok');
    });

    it('an OAuth Test refreshes the tokens; after the user revokes the app at the provider it fails and says so', async () => {
      await call(
        client.call('credentials.saveOAuthClient', {
          name: 'Test IdP',
          issuer: oidc.issuer,
          endpoints: null,
          clientId: 'omni-desktop',
          scopes: ['offline_access'],
          apiDomains: ['127.0.0.1'],
          apiBaseUrl: null,
          redirectPort: null,
          flows: ['device'],
        }),
      );
      const events: { kind: string; connectionId?: string; flowId: string }[] = [];
      client.subscribe('credentials.flowEvents', {}, { onItem: (event) => events.push(event) });
      const started = await client.call('credentials.startDeviceFlow', { provider: 'test-idp', scopes: ['repo'] });
      await new TestBrowser().visit(started.verificationUriComplete!);
      const done = await waitFor(() => events.find((e) => e.flowId === started.flowId && e.kind === 'connected'), 'the device flow to connect', 20_000);
      const oauthId = done.connectionId!;
      assert.deepEqual(await call(client.call('credentials.keyHint', { connectionId: oauthId })), { hint: null }, 'tokens show no hint');

      const ok = await call(client.call('credentials.test', { connectionId: oauthId }));
      assert.equal(ok.outcome, 'ok', ok.message);
      assert.equal(ok.method, 'token_refresh');

      await oidc.revokeAll();
      const failed = await call(client.call('credentials.test', { connectionId: oauthId }));
      assert.equal(failed.outcome, 'failed');
      assert.match(failed.message, /Test IdP no longer accepts this connection's refresh token: access was revoked at Test IdP/);
      const listed = (await client.call('credentials.list', {})).find((c) => c.id === oauthId);
      assert.equal(listed?.status, 'revoked');
    });

    it('an API key with no test request says it cannot be checked', async () => {
      const services = host.server.services;
      const gemini = services.credentials.providers.get('gemini');
      assert.equal(gemini.kind, 'api_key');
      // A provider without one: the check says so rather than guessing.
      const { testRequest } = gemini as { testRequest?: unknown };
      delete (gemini as { testRequest?: unknown }).testRequest;
      try {
        const added = await client.call('credentials.addApiKey', { provider: 'gemini', apiKey: `gemini-${randomBytes(12).toString('base64url')}` });
        const check = await call(client.call('credentials.test', { connectionId: added.id }));
        assert.equal(check.outcome, 'untestable');
        assert.match(check.message, /has no test request, so the key cannot be checked/);
        await client.call('credentials.disconnect', { connectionId: added.id });
      } finally {
        (gemini as { testRequest?: unknown }).testRequest = testRequest;
      }
    });

    it('the ledger records each test and the rotation, and no answer, row or ledger entry holds more than the last 4 characters', () => {
      host.server.services.ledger.flush();
      const dbFile = join(home.path, 'memory', 'sessions.db');
      const rows = everyRowAsText(dbFile);
      assert.match(rows, /credential\.rotate/);
      assert.equal((rows.match(/credential\.test/g) ?? []).length >= 4, true, 'every Test is a ledger entry');
      const everything = [answers.join('\n'), rows].join('\n');
      for (const key of [FIRST_KEY, SECOND_KEY]) {
        const leaked = piecesOf(key).filter((piece) => everything.includes(piece));
        assert.deepEqual(leaked.length, 0, 'more than the last 4 characters of a key reached an answer, a row or the ledger');
        for (const file of ['sessions.db', 'sessions.db-wal']) {
          let bytes: Buffer;
          try {
            bytes = readFileSync(join(home.path, 'memory', file));
          } catch {
            continue;
          }
          assert.equal(bytes.includes(Buffer.from(key)), false, `${file} holds a key`);
        }
      }
    });
  });
}
