// The provider registry (GitHub, Google, generic OIDC, API-key providers) and GitHub's token endpoint quirk: it
// answers OAuth errors with HTTP 200, so the device flow must read a 200 `{"error": "authorization_pending"}` as
// pending. GitHub cannot be reached from a test, so a GitHub-shaped endpoint on 127.0.0.1 stands in for it.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { resolveEndpoints, requestedScopes } from '../../src-main/node/vault/authorizationServer';
import { startDeviceFlow, type DeviceFlowProgress } from '../../src-main/node/vault/deviceFlow';
import { credentialHeader } from '../../src-main/node/vault/handleInjection';
import { ProviderRegistry, type OAuthProvider } from '../../src-main/node/vault/providers';
import { CredentialRequestError, OAuthFlowError, UnknownProviderError } from '../../src-main/node/vault/vaultErrors';

describe('provider registry', () => {
  it('has the API-key providers, GitHub and Google; OAuth ones need a client id before they connect', () => {
    const registry = new ProviderRegistry();
    assert.deepEqual(
      registry.list().map((p) => `${p.kind}:${p.id}`),
      ['api_key:anthropic', 'api_key:openai', 'api_key:openai-compatible', 'api_key:gemini', 'oauth:github', 'oauth:google'],
    );
    // The Gemini API takes its key in x-goog-api-key (a Bearer header is for OAuth tokens there).
    assert.deepEqual(credentialHeader(registry.get('gemini').placement, 'k'), { 'x-goog-api-key': 'k' });
    assert.throws(() => registry.getOAuth('github'), (error: unknown) => error instanceof CredentialRequestError && /needs the OAuth client id.*configure it/.test(error.message));
    assert.throws(() => registry.getOAuth('anthropic'), /connected with an API key, not OAuth/);
    assert.throws(() => registry.get('gitlab'), (error: unknown) => error instanceof UnknownProviderError && /Known providers: anthropic, openai/.test(error.message));
    const github = registry.configureClient('github', { clientId: ' Iv1.abc ' });
    assert.equal(github.clientId, 'Iv1.abc');
    assert.equal(registry.getOAuth('github').clientId, 'Iv1.abc');
    assert.deepEqual(github.apiDomains, ['api.github.com', 'uploads.github.com']);
  });

  it("Google's short scope names become its scope URLs", () => {
    const google = new ProviderRegistry().configureClient('google', { clientId: 'x.apps.googleusercontent.com', clientSecret: 'installed-app-secret' });
    assert.equal(requestedScopes(google, ['drive.readonly', 'openid']), 'https://www.googleapis.com/auth/drive.readonly openid');
  });

  it('a generic OIDC provider needs https (http only on this machine) and at least one API domain', () => {
    const registry = new ProviderRegistry();
    const base = { id: 'corp', name: 'Corp SSO', clientId: 'omni', apiDomains: ['api.corp.example'] };
    assert.throws(() => registry.addOidc({ ...base, issuer: 'http://sso.corp.example' }), /must use https:\/\//);
    assert.throws(() => registry.addOidc({ ...base, issuer: 'not a url' }), /is not a URL/);
    assert.throws(() => registry.addOidc({ ...base, issuer: 'https://sso.corp.example', apiDomains: [] }), /at least one API domain/);
    assert.throws(() => registry.addOidc({ ...base, id: 'Corp!', issuer: 'https://sso.corp.example' }), /lowercase letters/);
    assert.throws(() => registry.addOidc({ ...base, id: 'openai', issuer: 'https://sso.corp.example' }), /built-in API-key provider/);
    const corp = registry.addOidc({ ...base, issuer: 'https://sso.corp.example/' });
    assert.deepEqual(corp.server, { discovery: true, issuer: 'https://sso.corp.example' });
    assert.deepEqual(corp.extraScopes, ['offline_access']);
    assert.equal(registry.addOidc({ ...base, id: 'local', issuer: 'http://127.0.0.1:8080/realms/dev' }).id, 'local');
  });
});

describe("GitHub's token endpoint (errors with status 200)", () => {
  async function githubStandIn(): Promise<{ origin: string; polls: number; close: () => void }> {
    const state = { origin: '', polls: 0, close: () => server.close() };
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (req.url === '/login/device/code') {
        res.end(JSON.stringify({ device_code: 'dc-1', user_code: 'WDJB-MJHT', verification_uri: 'https://github.com/login/device', expires_in: 900, interval: 1 }));
        return;
      }
      state.polls++;
      // As GitHub does: status 200 for the pending answer, then the token.
      res.end(JSON.stringify(state.polls === 1 ? { error: 'authorization_pending', error_description: 'The authorization request is still pending.' } : { access_token: 'gho_standin', token_type: 'bearer', scope: 'repo' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return state;
  }

  function githubAt(origin: string, quirk: boolean): OAuthProvider {
    const github = new ProviderRegistry().configureClient('github', { clientId: 'Iv1.test' });
    assert.equal(github.errorsWithStatus200, true);
    return {
      ...github,
      errorsWithStatus200: quirk,
      server: { discovery: false, issuer: origin, authorizationEndpoint: null, tokenEndpoint: `${origin}/login/oauth/access_token`, deviceAuthorizationEndpoint: `${origin}/login/device/code`, revocationEndpoint: null },
    };
  }

  it('a 200 authorization_pending is read as pending, then the token arrives', async (t) => {
    const standIn = await githubStandIn();
    t.after(standIn.close);
    const progress: DeviceFlowProgress[] = [];
    const flow = await startDeviceFlow(await resolveEndpoints(githubAt(standIn.origin, true)), ['repo'], { signal: new AbortController().signal, onProgress: (p) => progress.push(p) });
    assert.equal(flow.prompt.userCode, 'WDJB-MJHT');
    const tokens = await flow.tokens;
    assert.equal(tokens.access_token, 'gho_standin');
    assert.deepEqual(progress, [{ kind: 'pending', polls: 1 }]);
  });

  it('without reading them so, the same answers would end the flow as a malformed response', async (t) => {
    const standIn = await githubStandIn();
    t.after(standIn.close);
    const flow = await startDeviceFlow(await resolveEndpoints(githubAt(standIn.origin, false)), ['repo'], { signal: new AbortController().signal });
    await assert.rejects(flow.tokens, (error: unknown) => error instanceof OAuthFlowError && error.reason === 'request_failed');
  });
});
