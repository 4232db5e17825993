// A WASM agent's credential handle through the host's fetch (omni.consent → handle, omni.net_fetch with
// x-omni-handle): the host injects the real key only toward the connection's API host, the handle header never goes
// upstream, another agent cannot use the handle, and the grant's revocation, its expiry and a disconnect end the
// handle at once, in-flight requests included. Real consent engine, ledger, SQLite and OS keychain.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AgentHostCalls } from '../../src-main/node/sandbox/wasm/agentHostCalls';
import { AgentStore } from '../../src-main/node/sandbox/wasm/agentStore';
import { WorkspaceFiles } from '../../src-main/node/sandbox/wasm/workspaceFiles';
import { HandleInjector } from '../../src-main/node/vault/handleInjection';
import { Secret } from '../../src-main/node/vault/secret';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { startFakeUpstream, type FakeUpstream } from './fakeUpstream';
import { vaultFixture, type VaultFixture } from './vaultFixture';
import { wasmAgentCalls, type HostCallAnswer as Answer } from './wasmAgentCalls';

const SESSION = 'ses_handleFetch01';
const CAPABILITY = 'oauth:openai-compatible.api';

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 90_000);
} else {
  describe('credential handles on the WASM host fetch', () => {
    let upstream: FakeUpstream;
    let fixture: VaultFixture;
    const key = `sk-handle-${randomBytes(24).toString('base64url')}`;
    let connectionId: string;

    before(async () => {
      upstream = await startFakeUpstream();
      upstream.accept(key, 'the-real-key');
      fixture = await vaultFixture();
      connectionId = (await fixture.connections.addApiKey({ provider: 'openai-compatible', apiKey: new Secret(key), baseUrl: `${upstream.origin}/v1` })).id;
    });
    after(async () => {
      fixture.close();
      await upstream.close();
    });

    /** An agent's host calls as the sandbox builds them, with the credential injector; `grant` its capabilities. */
    function agent(agentId: string, grant: { oauthS?: number } = {}) {
      for (const scope of ['127.0.0.1', 'localhost']) fixture.consent.grant({ agentId, sessionId: SESSION, capability: 'network', scope, durationS: 600 }, 'user');
      if (grant.oauthS !== undefined) fixture.consent.grant({ agentId, sessionId: SESSION, capability: CAPABILITY, durationS: grant.oauthS }, 'user');
      const { calls, call } = wasmAgentCalls(fixture, agentId, SESSION, CAPABILITY);
      const handle = async (): Promise<string> => {
        const answer = await call('consent', { capability: CAPABILITY, reason: 'call the model', duration_s: 600 });
        assert.ok(answer.ok && answer.granted === true, JSON.stringify(answer));
        assert.equal(typeof answer.handle, 'string', JSON.stringify(answer));
        return answer.handle as string;
      };
      const fetchWith = (handle: string | null, url: string) => call('net_fetch', { url, method: 'GET', headers: handle ? { 'X-Omni-Handle': handle } : {} });
      return { calls, call, handle, fetchWith };
    }

    const body = (answer: Answer) => JSON.parse(Buffer.from(String((answer as Record<string, unknown>).body_b64), 'base64').toString()) as Record<string, unknown>;

    it('omni.consent hands out an opaque handle; net_fetch with it reaches the API with the real key, and the handle never goes upstream', async () => {
      const a = agent('agent-a', { oauthS: 600 });
      const handle = await a.handle();
      assert.match(handle, /^omh_[A-Za-z0-9_-]{32}$/);
      assert.ok(!handle.includes(key.slice(10, 26)), 'not derived from the key');
      assert.equal(await a.handle(), handle, 'asking again under the same grant gives the same handle');

      const answer = await a.fetchWith(handle, `${upstream.origin}/v1/models`);
      assert.ok(answer.ok, JSON.stringify(answer));
      assert.equal(answer.status, 200);
      assert.equal(body(answer).credential, 'the-real-key');
      const seen = upstream.seen.at(-1)!;
      assert.ok(seen.credential === key);
      assert.ok(!seen.headerNames.includes('x-omni-handle'));
      assert.ok(!JSON.stringify(answer).includes(key), 'the response to the guest does not carry the key');

      const use = fixture.entries('credential.use').at(-1)!;
      assert.deepEqual(
        { ...use.payload, handleId: typeof use.payload.handleId },
        { handleId: 'string', connectionId, method: 'GET', host: new URL(upstream.origin).host, path: '/v1/models', injected: true, status: 200, error: null },
      );
      assert.equal(fixture.entries('credential.handle_issue').filter((e) => e.actor === 'agent:agent-a').length, 1);
      assert.deepEqual(
        fixture.connections.list().find((c) => c.id === connectionId)!.handles.map((h) => h.agentId),
        ['agent-a'],
        'the Connections view shows which agents hold handles',
      );
    });

    it('the key goes only to the API host: not to another host name, not across a redirect', async () => {
      const a = agent('agent-b', { oauthS: 600 });
      const handle = await a.handle();
      const port = new URL(upstream.origin).port;
      const elsewhere = await a.fetchWith(handle, `http://localhost:${port}/v1/echo`);
      assert.ok(elsewhere.ok, JSON.stringify(elsewhere));
      assert.equal(body(elsewhere).credential, null);
      assert.equal(upstream.seen.at(-1)!.credential, null);
      assert.ok(!upstream.seen.at(-1)!.headerNames.includes('x-omni-handle'));

      const redirected = await a.fetchWith(handle, `${upstream.origin}/redirect?to=${encodeURIComponent(`http://localhost:${port}/v1/echo`)}`);
      assert.ok(redirected.ok, JSON.stringify(redirected));
      assert.equal(body(redirected).credential, null, 'the redirect target did not get the key');
      assert.ok(upstream.seen.at(-2)!.credential === key, 'the first hop (the API host) did');
    });

    it("another agent cannot use someone else's handle; a made-up handle is refused; without a grant there is no handle", async () => {
      const owner = agent('agent-c', { oauthS: 600 });
      const handle = await owner.handle();
      const thief = agent('agent-d');
      const stolen = await thief.fetchWith(handle, `${upstream.origin}/v1/models`);
      assert.ok(!stolen.ok);
      assert.equal(stolen.error.code, 'capability_revoked');
      assert.match(stolen.error.message, /issued to another agent or session/);
      const madeUp = await thief.fetchWith('omh_madeup', `${upstream.origin}/v1/models`);
      assert.ok(!madeUp.ok);
      assert.match(madeUp.error.message, /unknown, or has ended/);
      // No grant: consent is asked with no channel attached, so it is denied (fail closed) and no handle exists.
      const denied = await thief.call('consent', { capability: CAPABILITY, reason: 'call the model', duration_s: 60 });
      assert.ok(denied.ok && denied.granted === false && denied.handle === undefined);
    });

    it('revoking the grant ends the handle at once, aborting a request in flight', async () => {
      const a = agent('agent-e', { oauthS: 600 });
      const handle = await a.handle();
      const record = fixture.connections.handles.list().find((h) => h.agentId === 'agent-e')!;
      // A stream that never ends: the request is in flight until something aborts it.
      const open = upstream.openStreams;
      const inFlight = a.call('net_fetch', { url: `${upstream.origin}/v1/stream`, method: 'GET', headers: { 'x-omni-handle': handle } });
      while (upstream.openStreams === open) await new Promise((r) => setTimeout(r, 10));
      fixture.consent.revoke(record.grantId, 'user');
      const aborted = await inFlight;
      assert.ok(!aborted.ok);
      assert.equal(aborted.error.code, 'capability_revoked');
      const next = await a.fetchWith(handle, `${upstream.origin}/v1/models`);
      assert.ok(!next.ok);
      assert.equal(next.error.code, 'capability_revoked');
      assert.ok(fixture.entries('credential.handle_revoke').some((e) => e.payload.handleId === record.handleId && e.payload.code === 'grant_revoked'));
    });

    it('a grant that runs out ends its handle', async () => {
      const a = agent('agent-f', { oauthS: 1 });
      const handle = await a.handle();
      const ok = await a.fetchWith(handle, `${upstream.origin}/v1/models`);
      assert.ok(ok.ok);
      await new Promise((r) => setTimeout(r, 1_200));
      const late = await a.fetchWith(handle, `${upstream.origin}/v1/models`);
      assert.ok(!late.ok);
      assert.equal(late.error.code, 'capability_revoked');
    });

    it('a handle for a provider nobody connected is not issued, and the grant still stands', async () => {
      fixture.consent.grant({ agentId: 'agent-g', sessionId: SESSION, capability: 'oauth:github.repo', durationS: 60 }, 'user');
      mkdirSync(join(fixture.home, 'ws-agent-g'), { recursive: true });
      const calls = new AgentHostCalls({
        agentId: 'agent-g',
        sessionId: SESSION,
        declared: new Set(['oauth:github.repo']),
        consent: fixture.consent,
        files: new WorkspaceFiles(join(fixture.home, 'ws-agent-g')),
        store: new AgentStore(fixture.db),
        credentials: new HandleInjector(fixture.connections.handles, (id) => fixture.connections.credentialFor(id), () => {}),
      });
      const answer = JSON.parse(await calls.call('consent', JSON.stringify({ capability: 'oauth:github.repo', reason: 'read issues', duration_s: 60 }))) as Answer;
      assert.ok(answer.ok && answer.granted === true && answer.handle === null);
      assert.match(String(answer.handle_error), /no working github connection.*connect github/i);
    });

    it('disconnecting the connection ends every handle to it', async () => {
      const a = agent('agent-h', { oauthS: 600 });
      const handle = await a.handle();
      await fixture.connections.disconnect(connectionId);
      const after = await a.fetchWith(handle, `${upstream.origin}/v1/models`);
      assert.ok(!after.ok);
      assert.equal(after.error.code, 'capability_revoked');
      assert.deepEqual(fixture.connections.handles.list(connectionId), []);
    });
  });
}
