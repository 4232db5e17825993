// A WASM agent allowed `oauth:<provider>.<scope>` once: omni.consent's handle spends the grant and serves every
// net_fetch of that run of the agent; it ends when the agent stops (the next run asks again); revoking the spent
// grant mid-run aborts a request in flight. Real consent engine, ledger, SQLite and OS keychain.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Secret } from '../../src-main/node/vault/secret';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { startFakeUpstream, type FakeUpstream } from './fakeUpstream';
import { vaultFixture, type VaultFixture } from './vaultFixture';
import { wasmAgentCalls } from './wasmAgentCalls';

const SESSION = 'ses_handleOnce01';
const CAPABILITY = 'oauth:openai-compatible.api';

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 90_000);
} else {
  describe('a WASM agent\'s connection allowed once', () => {
    let upstream: FakeUpstream;
    let fixture: VaultFixture;
    const key = `sk-once-${randomBytes(24).toString('base64url')}`;

    before(async () => {
      upstream = await startFakeUpstream();
      upstream.accept(key, 'the-real-key');
      fixture = await vaultFixture();
      await fixture.connections.addApiKey({ provider: 'openai-compatible', apiKey: new Secret(key), baseUrl: `${upstream.origin}/v1` });
    });
    after(async () => {
      fixture.close();
      await upstream.close();
    });

    /** One run of the agent: its host calls as the sandbox builds them (dispose = the agent stopped). */
    function run(agentId: string) {
      const { calls, call } = wasmAgentCalls(fixture, agentId, SESSION, CAPABILITY);
      const consent = () => call('consent', { capability: CAPABILITY, reason: 'call the model', duration_s: 600 });
      const fetchWith = (handle: string, path: string) => call('net_fetch', { url: `${upstream.origin}/v1/${path}`, method: 'GET', headers: { 'x-omni-handle': handle } });
      return { calls, consent, fetchWith };
    }

    /** The user answers "Allow once" (given here as the headless runner does, durationS null = once). */
    function allowOnce(agentId: string): string {
      for (const scope of ['127.0.0.1', 'localhost']) fixture.consent.grant({ agentId, sessionId: SESSION, capability: 'network', scope, durationS: 600 }, 'user');
      return fixture.consent.grant({ agentId, sessionId: SESSION, capability: CAPABILITY, durationS: null }, 'user').id;
    }

    it('the handle serves every request of the run; it ends with the run, and the next run is asked again', async () => {
      const grantId = allowOnce('once-a');
      const first = run('once-a');
      const answer = await first.consent();
      assert.ok(answer.ok && answer.granted === true && typeof answer.handle === 'string', JSON.stringify(answer));
      const handle = answer.handle as string;
      for (let i = 0; i < 3; i++) {
        const fetched = await first.fetchWith(handle, 'models');
        assert.ok(fetched.ok && fetched.status === 200, JSON.stringify(fetched));
        assert.ok(upstream.seen.at(-1)!.credential === key, 'the real key went upstream');
      }
      assert.equal(fixture.entries('consent.use').filter((e) => e.payload.grantId === grantId).length, 1, 'spent once, by the handle');
      assert.equal(fixture.entries('credential.handle_issue').at(-1)!.payload.forOneRun, true);

      // The agent stops: the handle ends with its run, and the spent grant leaves the session's grants.
      first.calls.dispose();
      const ended = fixture.entries('credential.handle_revoke').at(-1)!;
      assert.deepEqual([ended.payload.agentId, ended.payload.code], ['once-a', 'run_ended']);
      assert.ok(!fixture.consent.list(SESSION).some((g) => g.id === grantId));
      const late = await run('once-a').fetchWith(handle, 'models');
      assert.ok(!late.ok);
      assert.equal(late.error.code, 'capability_revoked');

      // The next run: the once-grant does not carry over (no card can be shown here, so the ask fails closed).
      const second = run('once-a');
      const refused = await second.consent();
      assert.ok(refused.ok && refused.granted === false && refused.handle === undefined, JSON.stringify(refused));
      allowOnce('once-a');
      const again = await second.consent();
      assert.ok(again.ok && typeof again.handle === 'string' && again.handle !== handle, JSON.stringify(again));
      assert.ok((await second.fetchWith(again.handle as string, 'models')).ok);
      second.calls.dispose();
    });

    it('revoking the spent grant mid-run aborts the request in flight and refuses the next', async () => {
      const grantId = allowOnce('once-b');
      const agent = run('once-b');
      const answer = await agent.consent();
      assert.ok(answer.ok && typeof answer.handle === 'string', JSON.stringify(answer));
      const handle = { handle: answer.handle as string };
      assert.ok((await agent.fetchWith(handle.handle, 'models')).ok);
      const open = upstream.openStreams;
      const inFlight = agent.fetchWith(handle.handle, 'stream');
      while (upstream.openStreams === open) await new Promise((r) => setTimeout(r, 10));
      fixture.consent.revoke(grantId, 'user');
      const aborted = await inFlight;
      assert.ok(!aborted.ok);
      assert.equal(aborted.error.code, 'capability_revoked');
      const next = await agent.fetchWith(handle.handle, 'models');
      assert.ok(!next.ok);
      assert.equal(next.error.code, 'capability_revoked');
      assert.ok(fixture.entries('credential.handle_revoke').some((e) => e.payload.agentId === 'once-b' && e.payload.code === 'grant_revoked'));
      agent.calls.dispose();
    });
  });
}
