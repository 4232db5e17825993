// OAuth clients set up in the app (issue 23), on a real SQLite file and the REAL OS keychain (a private
// gnome-keyring under dbus-run-session when the tests run without a desktop session): a client takes effect at once
// (the provider is listed and configured, no restart), its secret goes to the keychain and never to SQLite or the
// ledger, and bad input gets an error naming the field and how to fix it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { SaveOAuthClientRequest } from '../../src-preload/contract';
import { clientSecretAccount } from '../../src-main/node/vault/credentialVault';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { OAuthClients } from '../../src-main/node/vault/oauthClients';
import { refusedWith } from '../domainRefusal';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { assertNotOnDisk, listConnection, vaultFixture, type VaultFixture } from './vaultFixture';

const base: SaveOAuthClientRequest = {
  name: 'Acme SSO',
  issuer: 'https://sso.acme.test',
  endpoints: null,
  clientId: 'omni-desktop',
  scopes: ['offline_access'],
  apiDomains: ['api.acme.test'],
  apiBaseUrl: 'https://api.acme.test',
  redirectPort: null,
  flows: ['device', 'pkce'],
};

function clientsOf(fixture: VaultFixture): OAuthClients {
  return new OAuthClients({ db: fixture.db, vault: fixture.vault, providers: fixture.providers, connections: fixture.connections, ledger: fixture.ledger });
}

async function refused(clients: OAuthClients, request: Partial<SaveOAuthClientRequest>, field: string, message: RegExp, kind: 'invalid_input' | 'conflict' = 'invalid_input'): Promise<void> {
  await refusedWith(clients.save({ ...base, ...request }, 'user'), kind, field, message);
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 60_000);
} else {
  describe('OAuth clients set up in the app', () => {
    it('takes effect at once: listed, configured, with the flows chosen; after a restart too', async (t) => {
      const fixture = await vaultFixture();
      t.after(() => fixture.close());
      const clients = clientsOf(fixture);
      const saved = await clients.save(base, 'user');
      assert.equal(saved.id, 'acme-sso');
      assert.equal(saved.redirectUri, 'http://127.0.0.1/callback');
      const listed = fixture.connections.providers().find((p) => p.id === 'acme-sso');
      assert.deepEqual(listed && { name: listed.name, configured: listed.configured, flows: listed.flows }, { name: 'Acme SSO', configured: true, flows: ['device', 'pkce'] });
      // Edited: the new settings apply at once as well.
      await clients.save({ ...base, id: 'acme-sso', flows: ['pkce'], redirectPort: 8765 }, 'user');
      assert.deepEqual(fixture.connections.providers().find((p) => p.id === 'acme-sso')?.flows, ['pkce']);
      assert.equal(fixture.providers.getOAuth('acme-sso').redirectPort, 8765);
      // A host starting on the same database puts it back in its registry.
      fixture.providers.remove('acme-sso');
      clientsOf(fixture).load();
      assert.equal(fixture.providers.getOAuth('acme-sso').clientId, 'omni-desktop');
      assert.deepEqual(
        fixture.entries('credential.client').map((e) => e.payload.action),
        ['add', 'edit'],
      );
    });

    it('keeps the client secret in the keychain only, and reads it when a token request needs it', async (t) => {
      const fixture = await vaultFixture();
      t.after(() => fixture.close());
      const clients = clientsOf(fixture);
      const secret = `client-secret-${randomBytes(18).toString('base64url')}`;
      const saved = await clients.save({ ...base, clientSecret: secret }, 'user');
      t.after(() => fixture.vault.deleteClientSecret('acme-sso'));
      assert.equal(saved.hasClientSecret, true);
      assert.equal(JSON.stringify(saved).includes(secret), false, 'the answer holds the secret');
      assert.ok((await (await openKeychain()).get(clientSecretAccount('acme-sso')))?.expose() === secret, 'the keychain holds the secret');
      assert.ok((await fixture.providers.getOAuth('acme-sso').readClientSecret?.())?.expose() === secret, 'the provider reads it from the keychain');
      assertNotOnDisk(fixture, secret, 'the client secret');
      // Removing the client takes the secret out of the keychain and the provider out of the registry.
      assert.equal(await clients.remove('acme-sso', 'user'), true);
      assert.equal(await (await openKeychain()).get(clientSecretAccount('acme-sso')), null);
      assert.equal(fixture.connections.providers().some((p) => p.id === 'acme-sso'), false);
    });

    it('refuses bad input with the field and how to fix it', async (t) => {
      const fixture = await vaultFixture();
      t.after(() => fixture.close());
      const clients = clientsOf(fixture);
      await refused(clients, { issuer: 'sso dot acme' }, 'issuer', /the issuer "sso dot acme" is not a URL; give one like https:\/\/sso\.example\.com/);
      await refused(clients, { issuer: 'http://sso.acme.test' }, 'issuer', /must use https:\/\/ \(plain http only on this machine: 127\.0\.0\.1 or localhost\)/);
      await refused(clients, { endpoints: { authorization: null, token: 'https://sso.acme.test/token', deviceAuthorization: 'https://sso.acme.test/device', revocation: null } }, 'endpoints.authorization', /browser sign-in needs the authorization endpoint/);
      await refused(clients, { apiDomains: ['https://api.acme.test/v1'] }, 'apiDomains', /give host names only, like api\.example\.com/);
      await refused(clients, { apiDomains: [] }, 'apiDomains', /name at least one API host/);
      await refused(clients, { apiBaseUrl: 'https://elsewhere.test' }, 'apiBaseUrl', /not one of the API domains/);
      await refused(clients, { name: 'github' }, 'name', /there is already a provider called "GitHub"; choose another name/, 'conflict');
      // Plain http is fine toward this machine.
      const local = await clients.save({ ...base, name: 'Local IdP', issuer: 'http://localhost:9999', apiDomains: ['127.0.0.1'], apiBaseUrl: null }, 'user');
      assert.equal(local.issuer, 'http://localhost:9999');
      await refused(clients, { name: 'LOCAL idp' }, 'name', /there is already a provider called "Local IdP"/, 'conflict');
    });

    it('while a connection uses a client, where its tokens go cannot change and the client cannot be removed', async (t) => {
      const fixture = await vaultFixture();
      t.after(() => fixture.close());
      const clients = clientsOf(fixture);
      await clients.save(base, 'user');
      listConnection(fixture.db, 'conn_acmeinuse01', 'acme-sso', 'Acme');
      await assert.rejects(
        clients.save({ ...base, id: 'acme-sso', issuer: 'https://elsewhere.acme.test' }, 'user'),
        /1 connection uses Acme SSO: disconnect it before changing where its tokens go/,
      );
      await assert.rejects(clients.save({ ...base, id: 'acme-sso', apiDomains: ['api.acme.test', 'evil.test'] }, 'user'), /before changing where its tokens go/);
      // What does not move the tokens can change: the scopes asked, the name, the sign-in ways.
      const renamed = await clients.save({ ...base, id: 'acme-sso', name: 'Acme', scopes: ['offline_access', 'profile'], flows: ['device'] }, 'user');
      assert.equal(renamed.connections, 1);
      assert.equal(fixture.providers.getOAuth('acme-sso').name, 'Acme');
      await assert.rejects(clients.remove('acme-sso', 'user'), /1 connection uses Acme; disconnect it first, then remove the client/);
      assert.equal(fixture.providers.getOAuth('acme-sso').server.issuer, 'https://sso.acme.test');
    });
  });
}
