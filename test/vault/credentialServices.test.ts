// The credentials backend as hostServices composes it: the Connections API, the WASM injector and the proxy (started
// on first use) share one vault, one set of handles and the host's secret registry. Real keychain.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { it } from 'node:test';
import { ConsentEngine } from '../../src-main/node/consent/consentEngine';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase } from '../../src-main/node/store/database';
import { CredentialServices } from '../../src-main/node/vault/credentialServices';
import { openHostKeychain } from '../../src-main/node/vault/hostKeychain';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { tempDir } from '../helpers';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 60_000);
} else {
  it('composes the vault, connections, injector and proxy around the host registry', async (t) => {
    const dir = tempDir('credservices');
    const db = openDatabase(join(dir.path, 'sessions.db'));
    const secrets = new SecretRegistry();
    const scrubber = new SecretScrubber(secrets);
    const ledger = new Ledger(db, { scrub: (payload) => scrubber.scrubPayload(payload) });
    const consent = new ConsentEngine(db, ledger);
    const services = new CredentialServices({ db, ledger, keychain: openHostKeychain('os'), secrets, consent });
    t.after(() => {
      services.dispose();
      consent.dispose();
      ledger.dispose();
      db.close();
      dir.cleanup();
    });
    // The host hands over its keychain promise; status() tells the truth once it has answered.
    await services.vault.ready;
    assert.deepEqual(services.connections.status(), { available: true, problem: null });
    const key = `sk-ant-api03-${randomBytes(40).toString('base64url')}`;
    const connection = await services.connections.addApiKey({ provider: 'anthropic', apiKey: new Secret(key) });
    assert.equal(scrubber.scrubText(`x ${key}`), 'x [REDACTED:registered]', "the key is in the host's registry");
    consent.grant({ agentId: 'claude', sessionId: 'ses_services0001', capability: 'oauth:anthropic.api', durationS: 60 }, 'user');
    const { handle } = services.connections.handles.issue({ agentId: 'claude', sessionId: 'ses_services0001', capability: 'oauth:anthropic.api' });
    const env = await services.proxyEnvFor(handle);
    assert.deepEqual(Object.keys(env).sort(), ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL']);
    assert.match(env.ANTHROPIC_BASE_URL, /^http:\/\/127\.0\.0\.1:\d+\/anthropic$/);
    assert.ok(!Object.values(env).some((value) => value.includes(key)));
    const headers: Record<string, string> = { 'x-omni-handle': handle };
    const injection = await services.injector.prepare(headers, { agentId: 'claude', sessionId: 'ses_services0001' });
    assert.deepEqual(headers, {}, 'the handle header is taken out');
    assert.deepEqual(Object.keys(injection!.headersFor(new URL('https://api.anthropic.com/v1/messages'))), ['x-api-key']);
    assert.deepEqual(injection!.headersFor(new URL('https://example.com/')), {});
    assert.deepEqual(injection!.headersFor(new URL('http://api.anthropic.com/v1/messages')), {}, 'never over plain http to a remote host');
    assert.equal(services.connections.list()[0].id, connection.id);
  });
}
