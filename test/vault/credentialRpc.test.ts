// The credentials calls and streams through the real host and its WebSocket with the REAL OS keychain (a private
// gnome-keyring under dbus-run-session when the tests run without a desktop session) and a real authorization server
// (oidc-provider on 127.0.0.1): an API key goes in once and no answer, stream item or log line carries it back; the
// agents holding handles are listed as handles begin and end; a device flow started over the bridge reports its progress on the flow stream and ends in a listed connection;
// disconnect reports the provider's revocation; every change reaches the change stream.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Contract, FlowEvent } from '../../src-preload/contract';
import type { RpcClient } from '../../src-preload/rpc';
import { tempDir, waitFor } from '../helpers';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { connectClient, startTestHost, type TestHost } from '../server/connect';
import { CLIENT_ID, startOidcTestServer, type OidcTestServer } from './oidcTestServer';
import { TestBrowser } from './testBrowser';

const KEY = `canary-${randomBytes(24).toString('base64url')}`;

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 90_000);
} else {
  describe('credentials over the bridge with a real keychain', () => {
    let oidc: OidcTestServer;
    let host: TestHost;
    let client: RpcClient<Contract>;
    const home = tempDir('home');
    /** Every answer and stream item the client received, as JSON, to look for the key in. */
    const seen: string[] = [];
    const flowEvents: FlowEvent[] = [];
    const changed: string[] = [];
    /** Each connection as the live list last sent it. */
    const latest = new Map<string, { handles: { handleId: string }[] }>();
    let stderr = '';
    const realWrite = process.stderr.write.bind(process.stderr);

    const call = async <T>(answer: Promise<T>): Promise<T> => {
      const value = await answer;
      seen.push(JSON.stringify(value));
      return value;
    };

    before(async () => {
      process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
        return (realWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof process.stderr.write;
      oidc = await startOidcTestServer({ intervalS: 1 });
      writeFileSync(
        join(home.path, 'oauth-providers.json'),
        JSON.stringify({ oidc: [{ id: 'testidp', name: 'Test IdP', issuer: oidc.issuer, clientId: CLIENT_ID, apiDomains: ['127.0.0.1'] }] }),
      );
      host = await startTestHost(home.path, 0, 'os');
      client = await connectClient(host.server);
      client.subscribe('credentials.flowEvents', {}, { onItem: (event) => (seen.push(JSON.stringify(event)), flowEvents.push(event)) });
      // The live list of connections: which connection each change after the snapshot names.
      client.subscribe('credentials.watch', {}, {
        onItem: (frame) => {
          seen.push(JSON.stringify(frame));
          if (frame.kind === 'upsert') latest.set(frame.item.id, frame.item);
          if (frame.kind !== 'snapshot') changed.push(frame.kind === 'upsert' ? frame.item.id : frame.id);
        },
      });
    });

    after(async () => {
      client.dispose();
      await host.cleanup();
      await oidc.close();
      home.cleanup();
      process.stderr.write = realWrite;
    });

    it('says the keychain is available (after it has answered, never "still opening")', async () => {
      assert.deepEqual(await call(client.call('credentials.status', {})), { available: true, problem: null });
      const testidp = (await call(client.call('credentials.providers', {}))).find((p) => p.id === 'testidp');
      assert.deepEqual(testidp?.flows, ['device', 'pkce']);
    });

    let keyConnection = '';
    it('adds an API key; the answer, the list and the change stream name it without the key', async () => {
      const added = await call(client.call('credentials.addApiKey', { provider: 'openai-compatible', apiKey: KEY, label: 'Local Ollama', baseUrl: 'http://127.0.0.1:11434/v1' }));
      keyConnection = added.id;
      assert.equal(added.status, 'connected');
      assert.deepEqual(added.scopes, ['api']);
      assert.equal(added.baseUrl, 'http://127.0.0.1:11434/v1');
      const list = await call(client.call('credentials.list', {}));
      assert.deepEqual(
        list.map((c) => [c.id, c.label, c.handles]),
        [[added.id, 'Local Ollama', []]],
      );
      await waitFor(() => changed.includes(added.id), 'a change item for the new connection');
    });

    it('lists which agent holds a handle, as soon as it is issued and until its grant is revoked', async () => {
      const services = host.server.services;
      const sessionId = 'ses_credrpc0001';
      const capability = 'oauth:openai-compatible.api';
      const grant = services.consent.grant({ agentId: 'coder', sessionId, capability, durationS: 600 }, 'user');
      const before = changed.length;
      const { record } = services.credentials.connections.handles.issue({ agentId: 'coder', sessionId, capability });
      await waitFor(() => changed.slice(before).includes(keyConnection), 'a change item for the issued handle');
      const holders = (await call(client.call('credentials.list', {}))).find((c) => c.id === keyConnection)?.handles;
      assert.deepEqual(holders, [{ handleId: record.handleId, agentId: 'coder', sessionId, capability, issuedAt: record.issuedAt }]);
      assert.deepEqual(latest.get(keyConnection)?.handles.map((h) => h.handleId), [record.handleId], 'the live list carries the holder too');
      const afterIssue = changed.length;
      services.consent.revoke(grant.id, 'user');
      await waitFor(() => changed.slice(afterIssue).includes(keyConnection), 'a change item for the ended handle');
      assert.deepEqual((await call(client.call('credentials.list', {}))).find((c) => c.id === keyConnection)?.handles, []);
      assert.deepEqual(latest.get(keyConnection)?.handles, []);
    });

    let oauthConnection = '';
    it('connects through the device flow started over the bridge, with progress on the flow stream', async () => {
      const started = await call(client.call('credentials.startDeviceFlow', { provider: 'testidp', scopes: ['repo'], label: 'Work' }));
      assert.match(started.userCode, /^[A-Z]{4}-[A-Z]{4}$/);
      assert.ok(started.verificationUriComplete?.startsWith(`${oidc.issuer}/device`));
      // Let a poll or two go unanswered first, so "pending" has something to report.
      await waitFor(() => flowEvents.some((e) => e.flowId === started.flowId && e.kind === 'pending'), 'a pending event', 15_000);
      await new TestBrowser().visit(started.verificationUriComplete!);
      const done = await waitFor(() => flowEvents.find((e) => e.flowId === started.flowId && e.kind !== 'pending' && e.kind !== 'slow_down'), 'the flow to end', 20_000);
      assert.equal(done.kind, 'connected');
      oauthConnection = done.kind === 'connected' ? done.connectionId : '';
      const listed = (await call(client.call('credentials.list', {}))).find((c) => c.id === oauthConnection);
      assert.equal(listed?.label, 'Work');
      assert.equal(listed?.status, 'connected');
      assert.ok(listed?.scopes.includes('repo'));
      assert.ok(listed?.expiresAt && listed.expiresAt > Date.now(), 'an access token lifetime is listed');
    });

    it('cancels a flow: the stream says so and the call answers true once', async () => {
      const started = await call(client.call('credentials.startDeviceFlow', { provider: 'testidp', scopes: ['repo'] }));
      assert.deepEqual(await client.call('credentials.cancelFlow', { flowId: started.flowId }), { cancelled: true });
      const ended = await waitFor(() => flowEvents.find((e) => e.flowId === started.flowId && (e.kind === 'cancelled' || e.kind === 'failed')), 'the cancel event');
      assert.ok(ended.kind === 'cancelled' || (ended.kind === 'failed' && ended.reason === 'cancelled'), `ended as ${JSON.stringify(ended)}`);
    });

    it('disconnects: the provider confirms the revocation of the OAuth tokens; the key is deleted locally', async () => {
      const oauth = await call(client.call('credentials.disconnect', { connectionId: oauthConnection }));
      assert.equal(oauth.revokedAtProvider, true);
      assert.equal(oauth.providerError, null);
      assert.equal(oauth.connection.status, 'disconnected');
      const key = await call(client.call('credentials.disconnect', { connectionId: keyConnection }));
      assert.equal(key.revokedAtProvider, false);
      assert.deepEqual(await call(client.call('credentials.list', {})), []);
      const all = await call(client.call('credentials.list', { includeDisconnected: true }));
      assert.deepEqual(all.map((c) => c.status).sort(), ['disconnected', 'disconnected']);
    });

    it('never sent the key back, and never logged it', () => {
      assert.ok(seen.length > 10);
      assert.equal(seen.join('\n').includes(KEY), false, 'an answer or stream item holds the API key');
      assert.equal(stderr.includes(KEY), false, 'the host log holds the API key');
    });
  });
}
