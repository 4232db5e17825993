// The vault over the REAL OS keychain (a private gnome-keyring when the tests run without a desktop session): values
// stay Secrets, every value stored or read is registered for scrubbing and stays registered after it is replaced or
// deleted (until the host stops), and without a keychain every operation throws VaultUnavailableError.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, it } from 'node:test';
import { credentialAccount, CredentialVault } from '../../src-main/node/vault/credentialVault';
import { openHostKeychain } from '../../src-main/node/vault/hostKeychain';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { VaultUnavailableError } from '../../src-main/node/vault/vaultErrors';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';

const shapeless = () => randomBytes(24).toString('base64url');

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 60_000);
} else {
  describe('credential vault', () => {
    it('stores OAuth tokens in the keychain; reading them back gives Secrets; all are scrubbed until deleted', async (t) => {
      const registry = new SecretRegistry();
      const scrubber = new SecretScrubber(registry);
      const vault = new CredentialVault(await openHostKeychain('os'), registry);
      t.after(() => vault.dispose());
      const id = `conn_test_${randomBytes(6).toString('hex')}`;
      const access = shapeless();
      const refresh = shapeless();
      await vault.store(id, { kind: 'oauth', accessToken: new Secret(access), refreshToken: new Secret(refresh), tokenType: 'bearer' });
      assert.equal(scrubber.scrubText(`token ${access} and ${refresh}`), 'token [REDACTED:registered] and [REDACTED:registered]');

      const read = await vault.read(id);
      assert.ok(read?.kind === 'oauth');
      assert.ok(read.accessToken.expose() === access && read.refreshToken?.expose() === refresh);
      assert.equal(inspect(read), "{\n  kind: 'oauth',\n  accessToken: [REDACTED],\n  refreshToken: [REDACTED],\n  tokenType: 'bearer'\n}");
      assert.ok(!JSON.stringify(read).includes(access));

      // After a restart (a new vault and registry), reading registers the values again.
      const registry2 = new SecretRegistry();
      const vault2 = new CredentialVault(await openHostKeychain('os'), registry2);
      t.after(() => vault2.dispose());
      assert.equal(registry2.size, 0);
      await vault2.read(id);
      assert.equal(new SecretScrubber(registry2).scrubText(access), '[REDACTED:registered]');

      assert.equal(await vault.delete(id), true);
      assert.equal(await vault.read(id), null);
      assert.equal(scrubber.scrubText(access), '[REDACTED:registered]', 'a deleted credential is still taken out of what is written');
      assert.equal(await vault.delete(id), false);
      vault.dispose();
      assert.equal(scrubber.scrubText(access), access, 'a stopped vault leaves nothing registered');
    });

    it('replacing a credential (rotation) keeps the old value scrubbed: a key rotated because it leaked stays out of what is written', async (t) => {
      const registry = new SecretRegistry();
      const scrubber = new SecretScrubber(registry);
      const vault = new CredentialVault(await openHostKeychain('os'), registry);
      t.after(() => vault.dispose());
      const id = `conn_test_${randomBytes(6).toString('hex')}`;
      t.after(() => vault.delete(id));
      const first = shapeless();
      const second = shapeless();
      await vault.store(id, { kind: 'api_key', apiKey: new Secret(first) });
      await vault.store(id, { kind: 'api_key', apiKey: new Secret(second) });
      assert.equal(scrubber.scrubText(first), '[REDACTED:registered]');
      assert.equal(scrubber.scrubText(second), '[REDACTED:registered]');
      assert.equal(await vault.read(id).then((c) => (c?.kind === 'api_key' ? c.apiKey.expose() : null)), second);
      assert.equal(credentialAccount(id), `connection/${id}`);
    });

    it('opened with the promise of a keychain (as the host opens it): reports opening, and a store waits for it', async (t) => {
      let open!: (host: Awaited<ReturnType<typeof openHostKeychain>>) => void;
      const vault = new CredentialVault(new Promise((resolve) => (open = resolve)), new SecretRegistry());
      t.after(() => vault.dispose());
      assert.equal(vault.available, false);
      assert.equal(vault.problem, 'the OS keychain is still opening');
      const id = `conn_test_${randomBytes(6).toString('hex')}`;
      const stored = vault.store(id, { kind: 'api_key', apiKey: new Secret(shapeless()) });
      open(await openHostKeychain('os'));
      await stored;
      assert.equal(vault.available, true);
      assert.equal(vault.problem, null);
      assert.equal((await vault.read(id))?.kind, 'api_key');
      await vault.delete(id);
    });

    it('without a keychain every operation throws VaultUnavailableError saying why', async () => {
      const vault = new CredentialVault({ keychain: null, problem: 'the keychain is turned off (OMNI_KEYCHAIN=off)' }, new SecretRegistry());
      assert.equal(vault.available, false);
      for (const attempt of [() => vault.store('c', { kind: 'api_key', apiKey: new Secret(shapeless()) }), () => vault.read('c'), () => vault.delete('c')]) {
        await assert.rejects(attempt(), (error: unknown) => error instanceof VaultUnavailableError && /OMNI_KEYCHAIN=off/.test(error.message));
      }
    });
  });
}
