// The client ids of the built-in OAuth providers (GitHub, Google) set in the Connections view (issue 23), on a real
// SQLite file and the REAL OS keychain (a private gnome-keyring under dbus-run-session when the tests run without a
// desktop session): a client id applies at once and after a restart, its secret goes to the keychain and never to
// SQLite or the ledger, bad input gets a typed error naming the field, and a listed connection pins the client id.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { DomainError } from '../../src-main/node/base/domainError';
import { openDatabase } from '../../src-main/node/store/database';
import { BuiltInClients, builtInSecretAccountId } from '../../src-main/node/vault/builtInClients';
import { clientSecretAccount } from '../../src-main/node/vault/credentialVault';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { OAuthClients } from '../../src-main/node/vault/oauthClients';
import { ProviderRegistry } from '../../src-main/node/vault/providers';
import { refusedWith } from '../domainRefusal';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { assertNotOnDisk, listConnection, vaultFixture, type VaultFixture } from './vaultFixture';

function clientsOf(fixture: VaultFixture, providers = fixture.providers): BuiltInClients {
  return new BuiltInClients({ db: fixture.db, vault: fixture.vault, providers, connections: fixture.connections, ledger: fixture.ledger });
}

async function refused(clients: BuiltInClients, request: { provider: string; clientId: string }, field: string | undefined, message: RegExp): Promise<void> {
  await refusedWith(clients.save(request, 'user'), 'invalid_input', field, message);
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 60_000);
} else {
  describe('client ids of the built-in OAuth providers set in the app', () => {
    it('applies at once (GitHub becomes connectable) and again on a host started on the same database', async (t) => {
      const fixture = await vaultFixture();
      t.after(() => fixture.close());
      const github = () => fixture.connections.providers().find((p) => p.id === 'github');
      assert.deepEqual(github() && { configured: github()!.configured, flows: github()!.flows }, { configured: false, flows: [] });
      const saved = await clientsOf(fixture).save({ provider: 'github', clientId: '  Iv1.abc123  ' }, 'user');
      assert.deepEqual({ ...saved, updatedAt: 0 }, { provider: 'github', name: 'GitHub', clientId: 'Iv1.abc123', hasClientSecret: false, redirectUri: 'http://127.0.0.1/callback', updatedAt: 0 });
      assert.deepEqual(github() && { configured: github()!.configured, flows: github()!.flows }, { configured: true, flows: ['device', 'pkce'] });
      // A new host: a fresh registry (as from oauth-providers.json with no GitHub entry) loaded from the same file.
      fixture.db.close();
      const reopened = openDatabase(fixture.dbFile);
      t.after(() => reopened.close());
      const registry = new ProviderRegistry();
      assert.equal(registry.list().find((p) => p.id === 'github' && p.kind === 'oauth' && p.clientId), undefined);
      new BuiltInClients({ db: reopened, vault: fixture.vault, providers: registry, connections: { list: () => [] }, ledger: fixture.ledger }).load();
      assert.equal(registry.getOAuth('github').clientId, 'Iv1.abc123');
      const google = registry.get('google');
      assert.equal(google.kind === 'oauth' && google.clientId, null, 'only the provider that was set is configured');
    });

    it('keeps the client secret in the keychain only: not in SQLite, not in the ledger, not in the answer', async (t) => {
      const fixture = await vaultFixture();
      t.after(() => fixture.close());
      const clients = clientsOf(fixture);
      const secret = `GOCSPX-${randomBytes(18).toString('base64url')}`;
      const saved = await clients.save({ provider: 'google', clientId: '123-abc.apps.googleusercontent.com', clientSecret: secret }, 'user');
      t.after(() => fixture.vault.deleteClientSecret(builtInSecretAccountId('google')));
      assert.equal(saved.hasClientSecret, true);
      assert.equal(JSON.stringify(saved).includes(secret), false, 'the answer holds the secret');
      assert.equal((await (await openKeychain()).get(clientSecretAccount(builtInSecretAccountId('google'))))?.expose(), secret);
      assert.equal((await fixture.providers.getOAuth('google').readClientSecret?.())?.expose(), secret, 'a token request reads it from the keychain');
      const entries = fixture.entries('credential.client');
      assert.deepEqual(entries.map((e) => e.payload), [{ action: 'configure-builtin', provider: 'google', clientId: '123-abc.apps.googleusercontent.com', hasClientSecret: true }]);
      assert.equal(JSON.stringify(entries).includes(secret), false, 'the ledger holds the secret');
      assertNotOnDisk(fixture, secret, 'the client secret');
      // Saved again without a secret, the stored one stays; asked to, it leaves the keychain.
      assert.equal((await clients.save({ provider: 'google', clientId: '123-abc.apps.googleusercontent.com' }, 'user')).hasClientSecret, true);
      assert.equal((await clients.save({ provider: 'google', clientId: '123-abc.apps.googleusercontent.com', removeClientSecret: true }, 'user')).hasClientSecret, false);
      assert.equal(await (await openKeychain()).get(clientSecretAccount(builtInSecretAccountId('google'))), null);
      assert.equal(await fixture.providers.getOAuth('google').readClientSecret?.(), null);
    });

    it('refuses bad input with a typed error naming the field and how to fix it', async (t) => {
      const fixture = await vaultFixture();
      t.after(() => fixture.close());
      const clients = clientsOf(fixture);
      await refused(clients, { provider: 'gitlab', clientId: 'x' }, undefined, /There is no provider "gitlab"\. Known providers: .*github/);
      await refused(clients, { provider: 'anthropic', clientId: 'x' }, 'provider', /Anthropic is connected with an API key; it has no OAuth client id to set/);
      await refused(clients, { provider: 'github', clientId: '   ' }, 'clientId', /the client id is empty; copy it from the app you registered/);
      await refused(clients, { provider: 'github', clientId: 'a'.repeat(513) }, 'clientId', /a client id is at most 512 characters \(this one has 513\)/);
      await refused(clients, { provider: 'github', clientId: 'Iv1.abc\nIv1.def' }, 'clientId', /no control characters/);
      // A client set up by issuer is edited where it was added, not here.
      await new OAuthClients({ db: fixture.db, vault: fixture.vault, providers: fixture.providers, connections: fixture.connections, ledger: fixture.ledger }).save(
        { name: 'Acme SSO', issuer: 'https://sso.acme.test', endpoints: null, clientId: 'omni', scopes: [], apiDomains: ['api.acme.test'], apiBaseUrl: null, redirectPort: null, flows: ['device'] },
        'user',
      );
      await refused(clients, { provider: 'acme-sso', clientId: 'x' }, 'provider', /set up in the app; edit it under OAuth clients/);
      assert.equal(fixture.connections.providers().find((p) => p.id === 'github')?.configured, false, 'a refused client id is not applied');
      assert.deepEqual(fixture.db.prepare('SELECT * FROM builtin_oauth_clients').all(), [], 'nothing refused was stored');
    });

    it('keeps the client id while a connection of the provider is listed: disconnect it first', async (t) => {
      const fixture = await vaultFixture();
      t.after(() => fixture.close());
      const clients = clientsOf(fixture);
      await clients.save({ provider: 'github', clientId: 'Iv1.first' }, 'user');
      listConnection(fixture.db, 'conn_githubinuse1', 'github', 'GitHub');
      await assert.rejects(clients.save({ provider: 'github', clientId: 'Iv1.second' }, 'user'), (error: unknown) => {
        assert.ok(error instanceof DomainError);
        assert.equal(error.kind, 'conflict');
        assert.match(error.message, /1 connection uses GitHub: disconnect it first, then change its client id/);
        return true;
      });
      assert.equal(fixture.providers.getOAuth('github').clientId, 'Iv1.first');
      // The same id again (say, to add a secret) moves no token, so it is allowed.
      assert.equal((await clients.save({ provider: 'github', clientId: 'Iv1.first' }, 'user')).clientId, 'Iv1.first');
    });
  });
}
