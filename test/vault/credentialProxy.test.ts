// The credential-injecting proxy with a real streaming client in its own process (given only the proxy's env), a
// fake upstream standing in for the provider's API, the real consent engine and the real OS keychain: every SSE
// event arrives, the real key reaches the upstream and the dummy never does, a revoke cuts a stream in flight within
// 1 s and refuses the next request, and every request is one ledger entry without headers or bodies.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { CredentialProxy } from '../../src-main/node/vault/credentialProxy';
import { Secret } from '../../src-main/node/vault/secret';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { startFakeUpstream, type FakeUpstream } from './fakeUpstream';
import { STREAMING_CLIENT } from './streamingClient';
import { localAnthropic, startFixtureProxy, vaultFixture, type VaultFixture } from './vaultFixture';

const AGENT = 'native-coder';
const SESSION = 'ses_proxyTest0001';

interface ClientLine {
  t: number;
  status?: number;
  event?: string;
  ended?: string;
  error?: string;
  refused?: string;
  env?: Record<string, string>;
}

/** Runs the streaming client with exactly `env` (plus PATH); `onLine` sees each line as it is printed. */
function runClient(env: Record<string, string>, args: string[], onLine: (line: ClientLine) => void = () => {}): Promise<{ lines: ClientLine[]; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', STREAMING_CLIENT, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let partial = '';
    const lines: ClientLine[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      partial += chunk;
      let end;
      while ((end = partial.indexOf('\n')) >= 0) {
        const line = JSON.parse(partial.slice(0, end)) as ClientLine;
        partial = partial.slice(end + 1);
        lines.push(line);
        onLine(line);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(killer);
      resolve({ lines, stdout, stderr });
    });
  });
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 90_000);
} else {
  describe('credential proxy', () => {
    let upstream: FakeUpstream;
    let fixture: VaultFixture;
    let proxy: CredentialProxy;
    const realKey = `sk-local-${randomBytes(24).toString('base64url')}`;

    before(async () => {
      upstream = await startFakeUpstream();
      upstream.accept(realKey, 'the-real-key');
      fixture = await vaultFixture({ providers: [localAnthropic(upstream.origin)] });
      proxy = await startFixtureProxy(fixture);
    });
    after(async () => {
      proxy.dispose();
      fixture.close();
      await upstream.close();
    });

    /** An OpenAI-compatible connection to the upstream, a grant for the agent, its handle and the proxy's env. */
    async function agentWithProxyEnv(provider = 'openai-compatible'): Promise<{ env: Record<string, string>; grantId: string; connectionId: string }> {
      const connection =
        provider === 'openai-compatible'
          ? await fixture.connections.addApiKey({ provider, apiKey: new Secret(realKey), baseUrl: `${upstream.origin}/v1` })
          : await fixture.connections.addApiKey({ provider, apiKey: new Secret(realKey) });
      const capability = `oauth:${provider}.api`;
      fixture.consent.grant({ agentId: AGENT, sessionId: SESSION, capability, durationS: 600 }, 'user');
      const { handle, record } = fixture.connections.handles.issue({ agentId: AGENT, sessionId: SESSION, capability });
      // The grant the handle lives by (an earlier test's grant may be the one that covers it).
      return { env: proxy.envFor(handle), grantId: record.grantId, connectionId: connection.id };
    }

    it('gives the process a base URL on 127.0.0.1 and a dummy key; streams every SSE event with the real key swapped in', async () => {
      const { env, connectionId } = await agentWithProxyEnv();
      assert.deepEqual(Object.keys(env).sort(), ['OPENAI_API_KEY', 'OPENAI_BASE_URL']);
      assert.equal(env.OPENAI_BASE_URL, `${proxy.origin}/openai-compatible`);
      assert.match(env.OPENAI_API_KEY, /^omni-proxy-/);

      const { lines, stdout, stderr } = await runClient(env, ['25', '5']);
      assert.equal(stderr, '');
      assert.equal(lines.find((l) => l.status !== undefined)?.status, 200);
      const events = lines.filter((l) => l.event).map((l) => l.event!);
      assert.equal(events.length, 26, 'every event and [DONE]');
      assert.deepEqual(
        events.slice(0, 25).map((e) => (JSON.parse(e.slice('data: '.length)) as { seq: number }).seq),
        Array.from({ length: 25 }, (_, i) => i),
      );
      assert.equal(events[25], 'data: [DONE]');
      assert.ok(lines.some((l) => l.ended === 'complete'));
      assert.ok(!stdout.includes(realKey), 'the real key never reaches the process');

      const forwarded = upstream.seen.at(-1)!;
      assert.equal(forwarded.path, '/v1/chat/completions');
      assert.ok(forwarded.credential === realKey, 'the upstream got the real key');
      assert.ok(!forwarded.headerNames.includes('x-omni-handle'));

      const entry = fixture.entries('credential.proxy_request').at(-1)!;
      assert.deepEqual(Object.keys(entry.payload).sort(), ['bytesDown', 'bytesUp', 'connectionId', 'handleId', 'host', 'method', 'outcome', 'path', 'status']);
      assert.equal(entry.payload.connectionId, connectionId);
      assert.equal(entry.payload.method, 'POST');
      assert.equal(entry.payload.host, new URL(upstream.origin).host);
      assert.equal(entry.payload.path, '/v1/chat/completions');
      assert.equal(entry.payload.status, 200);
      assert.equal(entry.payload.outcome, 'ok');
      assert.ok((entry.payload.bytesDown as number) > 25 * 10);
      assert.equal(entry.actor, `agent:${AGENT}`);
    });

    it('Anthropic-style: ANTHROPIC_BASE_URL + ANTHROPIC_API_KEY, the real key in x-api-key', async () => {
      const { env } = await agentWithProxyEnv('anthropic-local');
      assert.deepEqual(Object.keys(env).sort(), ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL']);
      const { lines } = await runClient(env, ['3', '5']);
      assert.equal(lines.filter((l) => l.event).length, 4);
      assert.equal(upstream.seen.at(-1)!.path, '/v1/messages');
      assert.ok(upstream.seen.at(-1)!.credential === realKey);
    });

    it('revoking the grant mid-stream cuts the stream within 1 s; the next request is refused with a clear error', async (t) => {
      const { env, grantId } = await agentWithProxyEnv();
      let revokedAt = 0;
      let cutSeenAt = 0;
      const { lines } = await runClient(env, ['endless', '20', 'again'], (line) => {
        if (line.event && !revokedAt && lines5(line)) {
          revokedAt = Date.now();
          fixture.consent.revoke(grantId, 'user');
        }
        if (line.ended && !cutSeenAt) cutSeenAt = Date.now();
      });
      function lines5(line: ClientLine): boolean {
        return (JSON.parse(line.event!.slice(line.event!.indexOf('{'))) as { seq: number }).seq === 4;
      }
      const cut = lines.find((l) => l.ended);
      assert.equal(cut?.ended, 'cut', 'the stream broke instead of ending as if complete');
      const errorEvent = lines.find((l) => l.event?.startsWith('event: error'));
      // The event itself (not the next request's refusal, which also names it): the client hears why before the break.
      assert.match(errorEvent?.event ?? `no error event; last lines: ${JSON.stringify(lines.filter((l) => !l.env).slice(-4))}`, /^event: error\ndata: .*credential_revoked/);
      const cutMs = cutSeenAt - revokedAt;
      t.diagnostic(`revoke → the client saw its stream cut: ${cutMs} ms (through the child's stdout pipe)`);
      assert.ok(cutMs < 1000, `the stream was cut ${cutMs} ms after the revoke`);

      // The same process tries again: refused at once, saying why.
      const statuses = lines.filter((l) => l.status !== undefined).map((l) => l.status);
      assert.deepEqual(statuses, [200, 403]);
      const refused = JSON.parse(lines.find((l) => l.refused)!.refused!) as { error: { type: string; message: string } };
      assert.equal(refused.error.type, 'credential_revoked');
      assert.match(refused.error.message, /no longer\) bound to a credential: its grant was revoked/);
      assert.equal(upstream.openStreams, 0, 'the upstream stream was closed too');

      const outcomes = fixture.entries('credential.proxy_request').slice(-2).map((e) => [e.payload.outcome, e.payload.status]);
      assert.deepEqual(outcomes, [
        ['cut', 200],
        ['refused', 403],
      ]);
      assert.ok(fixture.entries('credential.handle_revoke').some((e) => e.payload.code === 'grant_revoked'));
    });

    it('disconnecting the connection ends its handles: the proxy refuses the key', async () => {
      const { env, connectionId } = await agentWithProxyEnv();
      const result = await fixture.connections.disconnect(connectionId);
      assert.equal(result.handlesEnded, 1);
      const { lines } = await runClient(env, ['3', '5']);
      assert.equal(lines.find((l) => l.status !== undefined)?.status, 403);
    });

    it('a request without the dummy key, or with a made-up one, is refused', async () => {
      const base = `${proxy.origin}/openai-compatible/chat/completions`;
      const none = await fetch(base, { method: 'POST', body: '{}' });
      assert.equal(none.status, 401);
      const madeUp = await fetch(base, { method: 'POST', body: '{}', headers: { authorization: 'Bearer omni-proxy-guessed' } });
      assert.equal(madeUp.status, 403);
    });

    it('a path that tries to leave the provider is refused or stays on it', async () => {
      const { env } = await agentWithProxyEnv();
      const key = env.OPENAI_API_KEY;
      const wrongRoute = await fetch(`${proxy.origin}/anthropic-local/v1/messages`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(wrongRoute.status, 400);
      const sneaky = await fetch(`${proxy.origin}/openai-compatible@evil.example/x`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(sneaky.status, 400);
    });
  });
}
