// The OAuth broker against a REAL authorization server (oidc-provider on 127.0.0.1, started here) and the REAL OS
// keychain (a private gnome-keyring under dbus-run-session when the tests run without a desktop session): device
// flow with slow_down, expired_token and access_denied; authorization code + PKCE through the loopback listener
// with a wrong state refused and a replayed code refused; refresh with rotation and reuse detected; revocation.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportLedger } from '../../src-main/node/ledger/ledgerExport';
import { resolveEndpoints } from '../../src-main/node/vault/authorizationServer';
import type { FlowEvent } from '../../src-main/node/vault/connections';
import { SLOW_DOWN_STEP_S } from '../../src-main/node/vault/deviceFlow';
import { buildAuthorizationRequest, exchangeAuthorizationCode } from '../../src-main/node/vault/pkceFlow';
import { OAuthFlowError } from '../../src-main/node/vault/vaultErrors';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { assertNoCanaryIn, type Canary } from './canaries';
import { CLIENT_ID, startOidcTestServer, type OidcTestServer } from './oidcTestServer';
import { TestBrowser } from './testBrowser';
import { vaultFixture, type VaultFixture } from './vaultFixture';

const PROVIDER = 'testidp';

async function fixtureFor(server: OidcTestServer): Promise<VaultFixture> {
  const fixture = await vaultFixture();
  fixture.providers.addOidc({ id: PROVIDER, name: 'Test IdP', issuer: server.issuer, clientId: CLIENT_ID, apiDomains: ['127.0.0.1'] });
  return fixture;
}

function flowEvents(fixture: VaultFixture): FlowEvent[] {
  const events: FlowEvent[] = [];
  fixture.connections.onDidProgressFlow((event) => events.push(event));
  return events;
}

async function rejectsWithReason(promise: Promise<unknown>, reason: string): Promise<OAuthFlowError> {
  let caught: unknown;
  await promise.then(
    () => assert.fail(`expected the flow to fail with ${reason}`),
    (error: unknown) => (caught = error),
  );
  assert.ok(caught instanceof OAuthFlowError, `expected an OAuthFlowError, got ${String(caught)}`);
  assert.equal(caught.reason, reason, caught.message);
  return caught;
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 120_000);
} else {
  describe('device flow (RFC 8628)', () => {
    it('connects after the user approves; honours the interval and adds 5 s after slow_down', async (t) => {
      const server = await startOidcTestServer({ intervalS: 1, slowDownFirstPolls: 1 });
      const fixture = await fixtureFor(server);
      t.after(() => fixture.close());
      t.after(() => server.close());
      const events = flowEvents(fixture);

      const started = await fixture.connections.startDeviceFlow({ provider: PROVIDER, scopes: ['repo'] });
      assert.match(started.userCode, /^[A-Z]{4}-[A-Z]{4}$/);
      assert.equal(started.verificationUri, `${server.issuer}/device`);
      assert.equal(started.intervalS, 1);
      assert.ok(started.expiresAt > Date.now());

      // The user types the code only once the app has been told to slow down.
      while (!events.some((e) => e.kind === 'slow_down')) await new Promise((r) => setTimeout(r, 50));
      const page = await new TestBrowser().visit(started.verificationUriComplete!);
      assert.equal(page.status, 200);
      assert.match(page.body, /Sign-in Success|success/i);

      const connection = await fixture.connections.flowResult(started.flowId);
      assert.equal(connection.provider, PROVIDER);
      assert.equal(connection.status, 'connected');
      assert.ok(connection.scopes.includes('repo'), `scopes ${connection.scopes.join(' ')}`);
      assert.ok(connection.expiresAt !== null && connection.expiresAt > Date.now());

      const slow = events.find((e) => e.kind === 'slow_down');
      assert.deepEqual(slow && { kind: slow.kind, intervalS: slow.intervalS }, { kind: 'slow_down', intervalS: 1 + SLOW_DOWN_STEP_S });
      assert.ok(events.some((e) => e.kind === 'connected' && e.connectionId === connection.id));
      const polls = [...server.polls.values()][0];
      assert.equal(polls[0].answer, 'slow_down');
      // After slow_down the next poll waited the interval plus 5 s, and no poll ever came too early.
      const gapMs = polls[1].at - polls[0].at;
      assert.ok(gapMs >= (1 + SLOW_DOWN_STEP_S) * 1000 - 50, `the poll after slow_down came ${gapMs} ms later`);
      assert.equal(server.tooEarly, 0);
      t.diagnostic(`poll gap after slow_down: ${gapMs} ms; polls: ${polls.map((p) => p.answer).join(', ')}`);

      // The tokens are in the keychain, the connection in the ledger (without them).
      const credential = await fixture.vault.read(connection.id);
      assert.equal(credential?.kind, 'oauth');
      const connect = fixture.entries('credential.connect');
      assert.equal(connect.length, 1);
      assert.deepEqual({ ...connect[0].payload, expiresAt: null }, { connectionId: connection.id, provider: PROVIDER, kind: 'oauth', flow: 'device', scopes: connection.scopes, expiresAt: null, baseUrl: null });
    });

    it('stops on expired_token when nobody enters the code in time', async (t) => {
      // The provider counts the code's life in whole seconds: with 2 s it could expire 1.1 s after it was issued, before
      // a loaded machine's first poll (1 s later) had seen authorization_pending. 3 s leaves that first poll pending.
      const server = await startOidcTestServer({ intervalS: 1, deviceCodeTtlS: 3 });
      const fixture = await fixtureFor(server);
      t.after(() => fixture.close());
      t.after(() => server.close());
      const events = flowEvents(fixture);
      const started = await fixture.connections.startDeviceFlow({ provider: PROVIDER, scopes: ['repo'] });
      const error = await rejectsWithReason(fixture.connections.flowResult(started.flowId), 'expired_token');
      assert.match(error.message, /ran out before it was approved; start the connection again/);
      const polls = [...server.polls.values()][0];
      assert.equal(polls.at(-1)!.answer, 'expired_token', 'the server, not only the local clock, said expired_token');
      assert.ok(events.some((e) => e.kind === 'pending'));
      assert.ok(events.some((e) => e.kind === 'failed' && e.reason === 'expired_token'));
      assert.deepEqual(fixture.connections.list(), []);
      assert.equal(fixture.entries('credential.fail').at(-1)!.payload.reason, 'expired_token');
    });

    it('stops on access_denied when the user refuses', async (t) => {
      const server = await startOidcTestServer({ intervalS: 1, decision: 'deny' });
      const fixture = await fixtureFor(server);
      t.after(() => fixture.close());
      t.after(() => server.close());
      const started = await fixture.connections.startDeviceFlow({ provider: PROVIDER, scopes: ['repo'] });
      await new TestBrowser().visit(started.verificationUriComplete!);
      await rejectsWithReason(fixture.connections.flowResult(started.flowId), 'access_denied');
      assert.deepEqual(fixture.connections.list(), []);
    });

    it('can be cancelled while it polls', async (t) => {
      const server = await startOidcTestServer({ intervalS: 1 });
      const fixture = await fixtureFor(server);
      t.after(() => fixture.close());
      t.after(() => server.close());
      const events = flowEvents(fixture);
      const started = await fixture.connections.startDeviceFlow({ provider: PROVIDER, scopes: ['repo'] });
      assert.equal(fixture.connections.cancelFlow(started.flowId), true);
      await rejectsWithReason(fixture.connections.flowResult(started.flowId), 'cancelled');
      assert.ok(events.some((e) => e.kind === 'cancelled'));
      assert.equal(server.polls.size, 0, 'no poll after the cancel');
    });
  });

  describe('authorization code + PKCE (RFC 8252 loopback)', () => {
    let server: OidcTestServer;
    let fixture: VaultFixture;
    before(async () => {
      server = await startOidcTestServer();
      fixture = await fixtureFor(server);
    });
    after(async () => {
      fixture.close();
      await server.close();
    });

    it('accepts one callback with the matching state, refuses a wrong state, then closes', async () => {
      const started = await fixture.connections.startPkce({ provider: PROVIDER, scopes: ['repo'] });
      const authorize = new URL(started.authorizeUrl);
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.match(started.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);

      const browser = new TestBrowser();
      const landed = await browser.visit(started.authorizeUrl, (next) => next.href.startsWith(started.redirectUri));
      assert.ok(landed.stopped, `the browser never got back to the app: ${landed.body.slice(0, 200)}`);
      const callback = landed.url;
      assert.ok(callback.searchParams.get('code'));

      // A forged answer (right shape, wrong state) is refused and does not end the wait.
      const forged = new URL(callback);
      forged.searchParams.set('state', 'not-the-state');
      const refused = await fetch(forged);
      assert.equal(refused.status, 400);
      assert.match(await refused.text(), /state does not match/);

      const accepted = await fetch(callback);
      assert.equal(accepted.status, 200);
      const connection = await fixture.connections.flowResult(started.flowId);
      assert.equal(connection.status, 'connected');

      // The listener took its one answer and closed: replaying the callback finds nobody listening.
      await assert.rejects(fetch(callback), (error: Error) => /ECONNREFUSED/.test(String((error.cause as Error)?.message ?? error.message)));
    });

    it('a code can be exchanged once: the server refuses it replayed', async () => {
      const endpoints = await resolveEndpoints(fixture.providers.getOAuth(PROVIDER));
      const redirectUri = 'http://127.0.0.1:9/callback';
      const request = await buildAuthorizationRequest(endpoints, ['repo'], redirectUri);
      const landed = await new TestBrowser().visit(request.url.href, (next) => next.href.startsWith(redirectUri));
      assert.ok(landed.stopped);
      const first = await exchangeAuthorizationCode(endpoints, landed.url, request, redirectUri);
      assert.ok(first.access_token);
      await rejectsWithReason(exchangeAuthorizationCode(endpoints, landed.url, request, redirectUri), 'invalid_grant');
    });

    it('a wrong code verifier is refused by the server (PKCE)', async () => {
      const endpoints = await resolveEndpoints(fixture.providers.getOAuth(PROVIDER));
      const redirectUri = 'http://127.0.0.1:9/callback';
      const request = await buildAuthorizationRequest(endpoints, ['repo'], redirectUri);
      const landed = await new TestBrowser().visit(request.url.href, (next) => next.href.startsWith(redirectUri));
      await rejectsWithReason(exchangeAuthorizationCode(endpoints, landed.url, { ...request, codeVerifier: `${request.codeVerifier.slice(0, -4)}AAAA` }, redirectUri), 'invalid_grant');
    });
  });

  describe('refresh with rotation, reuse detection, revocation', () => {
    let server: OidcTestServer;
    let fixture: VaultFixture;
    before(async () => {
      server = await startOidcTestServer();
      fixture = await fixtureFor(server);
    });
    after(async () => {
      fixture.close();
      await server.close();
    });

    async function connect(): Promise<string> {
      const started = await fixture.connections.startPkce({ provider: PROVIDER, scopes: ['repo'] });
      const landed = await new TestBrowser().visit(started.authorizeUrl, (next) => next.href.startsWith(started.redirectUri));
      await fetch(landed.url);
      return (await fixture.connections.flowResult(started.flowId)).id;
    }

    /** Every token the server issued to the app in these tests: none of them may reach the disk outside the keychain. */
    const issued: string[] = [];

    async function tokens(connectionId: string, from = fixture): Promise<{ access: string; refresh: string }> {
      const credential = await from.vault.read(connectionId);
      assert.ok(credential?.kind === 'oauth' && credential.refreshToken);
      const found = { access: credential.accessToken.expose(), refresh: credential.refreshToken.expose() };
      issued.push(found.access, found.refresh);
      return found;
    }

    it('rotates the refresh token; when an old one is used again the grant is revoked and the connection says why', async () => {
      const id = await connect();
      const first = await tokens(id);
      await fixture.connections.refresh(id);
      const second = await tokens(id);
      assert.ok(second.refresh !== first.refresh, 'the refresh token was rotated');
      assert.ok(second.access !== first.access);
      assert.equal(fixture.entries('credential.refresh').at(-1)!.payload.rotated, true);

      // A leaked copy of the first refresh token is presented: the server sees the reuse and revokes the grant.
      const endpoints = await resolveEndpoints(fixture.providers.getOAuth(PROVIDER));
      const { refreshTokens } = await import('../../src-main/node/vault/tokenGrants');
      await rejectsWithReason(refreshTokens(endpoints, first.refresh), 'invalid_grant');

      // The app's own (newest) token is now dead too: the next refresh fails and the connection is marked revoked.
      await rejectsWithReason(fixture.connections.refresh(id), 'invalid_grant');
      const connection = fixture.connections.get(id);
      assert.equal(connection.status, 'revoked');
      assert.match(connection.statusReason!, /refused the refresh token.*an earlier refresh token of this connection was used again.*Connect again/s);
      await assert.rejects(fixture.connections.credentialFor(id), /connection is revoked/);
      const fail = fixture.entries('credential.fail').at(-1)!;
      assert.equal(fail.payload.step, 'refresh');
      assert.equal(fail.payload.reason, 'invalid_grant');
    });

    it('an access token about to run out is refreshed before it is used', async (t) => {
      // A margin longer than the token's life: every use finds it about to run out.
      const eager = await vaultFixture({ refreshMarginMs: 2 * 3_600_000 });
      t.after(() => eager.close());
      eager.providers.addOidc({ id: PROVIDER, name: 'Test IdP', issuer: server.issuer, clientId: CLIENT_ID, apiDomains: ['127.0.0.1'] });
      const started = await eager.connections.startPkce({ provider: PROVIDER, scopes: ['repo'] });
      const landed = await new TestBrowser().visit(started.authorizeUrl, (next) => next.href.startsWith(started.redirectUri));
      await fetch(landed.url);
      const id = (await eager.connections.flowResult(started.flowId)).id;
      const before = await tokens(id, eager);
      const usable = await eager.connections.credentialFor(id);
      const after = await tokens(id, eager);
      assert.ok(after.access !== before.access && usable.value.expose() === after.access, 'the use got the refreshed token');
      const refresh = eager.entries('credential.refresh');
      assert.equal(refresh.length, 1);
      assert.equal(refresh[0].actor, 'host');
    });

    it('two refreshes at once present the refresh token once (no self-inflicted reuse)', async () => {
      const id = await connect();
      await Promise.all([fixture.connections.refresh(id), fixture.connections.refresh(id), fixture.connections.refresh(id)]);
      assert.equal(fixture.connections.get(id).status, 'connected');
      await fixture.connections.refresh(id);
      assert.equal(fixture.connections.get(id).status, 'connected');
    });

    it('disconnect revokes at the provider (RFC 7009) and deletes the local credential', async () => {
      const id = await connect();
      const { access, refresh } = await tokens(id);
      assert.ok(await server.provider.AccessToken.find(access), 'the server knows the access token');
      const result = await fixture.connections.disconnect(id);
      assert.equal(result.revokedAtProvider, true);
      assert.equal(result.providerError, null);
      assert.equal(result.connection.status, 'disconnected');
      assert.equal(await server.provider.AccessToken.find(access), undefined, 'the access token was revoked at the server');
      const { refreshTokens } = await import('../../src-main/node/vault/tokenGrants');
      const endpoints = await resolveEndpoints(fixture.providers.getOAuth(PROVIDER));
      await rejectsWithReason(refreshTokens(endpoints, refresh), 'invalid_grant');
      assert.equal(await fixture.vault.read(id), null);
      assert.equal(fixture.connections.list().some((c) => c.id === id), false);
      const revoke = fixture.entries('credential.revoke').at(-1)!;
      assert.deepEqual(revoke.payload, { connectionId: id, provider: PROVIDER, revokedAtProvider: true, providerError: null, handlesEnded: 0, localCredentialDeleted: true });
    });

    it('no token the server issued is in the database file, its -wal or -shm, the ledger or an export', async () => {
      assert.ok(issued.length >= 8, `${issued.length} tokens seen`);
      const canaries: Canary[] = issued.map((value, index) => ({ index, kind: 'oauth-token', value, text: value, registered: true, standalone: true }));
      fixture.ledger.flush();
      for (const file of ['', '-wal', '-shm']) {
        if (existsSync(fixture.dbFile + file)) assertNoCanaryIn(canaries, readFileSync(fixture.dbFile + file), `sessions.db${file}`);
      }
      const exported = join(fixture.home, 'export.jsonl');
      await exportLedger(fixture.db, exported);
      assertNoCanaryIn(canaries, readFileSync(exported), 'the ledger export');
      assertNoCanaryIn(canaries, fixture.logLines.join(''), 'the host log');
    });
  });
}
