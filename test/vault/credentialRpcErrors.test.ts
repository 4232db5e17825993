// The credentials calls through the real host and its WebSocket without a keychain (OMNI_KEYCHAIN=off): the status
// says why credentials are off, every connect is refused with UNAVAILABLE before anything is stored, and no answer
// to a bad request (INVALID_PARAMS, typed errors) and no host log line ever quotes the API key that was sent.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RpcError, type Contract } from '../../src-preload/contract';
import type { RpcClient } from '../../src-preload/rpc';
import { connectClient, startTestHost, type TestHost } from '../server/connect';
import { tempDir } from '../helpers';

/** A fresh random key per run; failures below name it "the key", never print it. */
const KEY = `canary-${randomBytes(24).toString('base64url')}`;

async function refusal(call: Promise<unknown>): Promise<RpcError> {
  let caught: unknown;
  await call.then(
    () => assert.fail('expected the call to be refused'),
    (error: unknown) => (caught = error),
  );
  assert.ok(caught instanceof RpcError, 'the refusal is a typed RpcError');
  return caught;
}

function assertNoKey(what: string, text: string): void {
  assert.equal(text.includes(KEY), false, `${what} contains the API key`);
  assert.equal(text.includes(KEY.slice(7, 27)), false, `${what} contains part of the API key`);
}

describe('credentials over the bridge without a keychain', () => {
  let host: TestHost;
  let client: RpcClient<Contract>;
  let stderr = '';
  const realWrite = process.stderr.write.bind(process.stderr);

  before(async () => {
    // Everything the host logs (HostLog writes to stderr), to check the key never reaches it.
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      return (realWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    host = await startTestHost(undefined, 0, 'off');
    client = await connectClient(host.server);
  });

  after(async () => {
    client.dispose();
    await host.cleanup();
    process.stderr.write = realWrite;
  });

  it('says credentials are off, and why', async () => {
    const status = await client.call('credentials.status', {});
    assert.equal(status.available, false);
    assert.match(status.problem ?? '', /OMNI_KEYCHAIN|keychain/i);
    assert.deepEqual(await client.call('credentials.list', {}), []);
  });

  it('offers the built-in providers; OAuth ones without a client id are not configured', async () => {
    const providers = await client.call('credentials.providers', {});
    const byId = new Map(providers.map((p) => [p.id, p]));
    assert.equal(byId.get('anthropic')?.kind, 'api_key');
    assert.equal(byId.get('openai-compatible')?.needsBaseUrl, true);
    assert.equal(byId.get('github')?.configured, false);
    assert.deepEqual(byId.get('github')?.flows, []);
  });

  it('refuses an API key with UNAVAILABLE, saying what to do, and stores nothing', async () => {
    const error = await refusal(client.call('credentials.addApiKey', { provider: 'anthropic', apiKey: KEY }));
    assert.equal(error.code, 'UNAVAILABLE');
    assert.match(error.message, /Credentials are disabled/);
    assertNoKey('the error', JSON.stringify(error.toBody()));
    assert.deepEqual(await client.call('credentials.list', { includeDisconnected: true }), []);
  });

  it('refuses flows with UNAVAILABLE before asking any provider', async () => {
    const error = await refusal(client.call('credentials.startDeviceFlow', { provider: 'anthropic', scopes: [] }));
    // Anthropic takes keys: the request is wrong before the keychain matters.
    assert.equal(error.code, 'INVALID_PARAMS');
    assert.match(error.message, /API key, not OAuth|not with a pasted key|OAuth/);
  });

  it('never quotes the key in INVALID_PARAMS answers', async () => {
    const bad: { name: string; params: Record<string, unknown> }[] = [
      { name: 'a key longer than any key', params: { provider: 'anthropic', apiKey: KEY.repeat(300) } },
      { name: 'an unknown field holding the key', params: { provider: 'anthropic', apiKey: KEY, [KEY]: KEY } },
      { name: 'an unknown provider', params: { provider: 'no-such-provider', apiKey: KEY } },
      { name: 'a provider id that is the key', params: { provider: KEY, apiKey: KEY } },
      { name: 'a key with a space in it', params: { provider: 'anthropic', apiKey: `${KEY} ${KEY}` } },
      { name: 'a base URL for a fixed provider', params: { provider: 'anthropic', apiKey: KEY, baseUrl: 'http://127.0.0.1:1/v1' } },
      { name: 'a label that is not text', params: { provider: 'anthropic', apiKey: KEY, label: 42 } },
    ];
    for (const { name, params } of bad) {
      // Sent as a raw frame's params: the schema, not the client's types, must refuse them.
      const error = await refusal((client.call as (m: string, p: unknown) => Promise<unknown>)('credentials.addApiKey', params));
      assert.equal(error.code, 'INVALID_PARAMS', `${name}: ${error.code}`);
      assertNoKey(`the answer to ${name}`, JSON.stringify(error.toBody()));
    }
  });

  it('never quotes a new key or a client secret in the answers to rotateKey and saveOAuthClient', async () => {
    const call = (client.call as (m: string, p: unknown) => Promise<unknown>).bind(client);
    const bad: { name: string; method: string; params: Record<string, unknown> }[] = [
      { name: 'a new key longer than any key', method: 'credentials.rotateKey', params: { connectionId: 'conn_doesnotexist', apiKey: KEY.repeat(300) } },
      { name: 'an unknown field holding the new key', method: 'credentials.rotateKey', params: { connectionId: 'conn_doesnotexist', apiKey: KEY, [KEY]: KEY } },
      { name: 'a key for an unknown connection', method: 'credentials.rotateKey', params: { connectionId: 'conn_doesnotexist', apiKey: KEY } },
      {
        name: 'a client secret longer than any',
        method: 'credentials.saveOAuthClient',
        params: { name: 'Acme', issuer: 'https://sso.acme.test', endpoints: null, clientId: 'omni', clientSecret: KEY.repeat(300), scopes: [], apiDomains: ['api.acme.test'], apiBaseUrl: null, redirectPort: null, flows: ['device'] },
      },
      {
        name: 'an unknown field holding the client secret',
        method: 'credentials.saveOAuthClient',
        params: { name: 'Acme', issuer: 'https://sso.acme.test', endpoints: null, clientId: 'omni', [KEY]: KEY, scopes: [], apiDomains: ['api.acme.test'], apiBaseUrl: null, redirectPort: null, flows: ['device'] },
      },
    ];
    for (const { name, method, params } of bad) {
      const error = await refusal(call(method, params));
      assert.ok(['INVALID_PARAMS', 'NOT_FOUND'].includes(error.code), `${name}: ${error.code}`);
      assertNoKey(`the answer to ${name}`, JSON.stringify(error.toBody()));
    }
  });

  it('answers NOT_FOUND for an unknown connection and false for an unknown flow', async () => {
    const error = await refusal(client.call('credentials.disconnect', { connectionId: 'conn_doesnotexist' }));
    assert.equal(error.code, 'NOT_FOUND');
    assert.match(error.message, /credentials\.list|connections\.list/);
    assert.deepEqual(await client.call('credentials.cancelFlow', { flowId: 'flow_doesnotexist' }), { cancelled: false });
  });

  it('logged nothing holding the key', () => {
    assertNoKey('the host log', stderr);
  });
});

describe('OAuth clients from <home>/oauth-providers.json', () => {
  it('adds an OIDC provider and configures a built-in one; a broken entry is reported and the rest applies', async () => {
    const home = tempDir('home');
    writeFileSync(
      join(home.path, 'oauth-providers.json'),
      JSON.stringify({
        clients: { github: { clientId: 'Iv1.example' }, anthropic: { clientId: 'nope' } },
        oidc: [{ id: 'acme', name: 'Acme SSO', issuer: 'http://127.0.0.1:9/', clientId: 'omni', apiDomains: ['127.0.0.1'], flows: ['device'] }],
      }),
    );
    let stderr = '';
    const realWrite = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      return true;
    }) as typeof process.stderr.write;
    const host = await startTestHost(home.path, 0, 'off').finally(() => (process.stderr.write = realWrite));
    const client = await connectClient(host.server);
    try {
      const providers = new Map((await client.call('credentials.providers', {})).map((p) => [p.id, p]));
      assert.deepEqual(providers.get('acme'), { id: 'acme', name: 'Acme SSO', kind: 'oauth', flows: ['device'], needsBaseUrl: false, configured: true });
      assert.equal(providers.get('github')?.configured, true);
      assert.match(stderr, /oauth-providers\.json: clients\.anthropic: .*takes an API key/);
    } finally {
      client.dispose();
      await host.cleanup();
      home.cleanup();
    }
  });

  it('reports a file that is not a configuration, and still starts', async () => {
    const home = tempDir('home');
    writeFileSync(join(home.path, 'oauth-providers.json'), JSON.stringify({ oidc: [{ id: 'x', issuer: 'http://127.0.0.1:9' }] }));
    let stderr = '';
    const realWrite = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      return true;
    }) as typeof process.stderr.write;
    const host = await startTestHost(home.path, 0, 'off').finally(() => (process.stderr.write = realWrite));
    try {
      assert.match(stderr, /oauth-providers\.json is not a valid provider configuration: oidc\.0\.name: .*; oidc\.0\.clientId/);
    } finally {
      await host.cleanup();
      home.cleanup();
    }
  });
});
