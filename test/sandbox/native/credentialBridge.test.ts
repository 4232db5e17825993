// A native-sandbox run reaches the credential proxy on the host through a bridge (LaunchPolicy.localServices): the
// real proxy (unix socket + TCP), a fake upstream standing in for the provider's API, the real vault and consent
// engine, and a real sandboxed process given only proxyEnv's variables. Through the bridge the request arrives with
// the real key swapped in while the process only ever holds the dummy; without the bridge the same request cannot
// even connect (the sandbox's network namespace has no way to the host's 127.0.0.1).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createNativeSandbox, NativeSandboxPolicyError, type LaunchPolicy } from '../../../src-main/node/sandbox/native/nativeSandbox';
import type { CredentialProxy } from '../../../src-main/node/vault/credentialProxy';
import { Secret } from '../../../src-main/node/vault/secret';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../../privateKeyring';
import { startFakeUpstream, type FakeUpstream } from '../../vault/fakeUpstream';
import { localAnthropic, startFixtureProxy, vaultFixture, type VaultFixture } from '../../vault/vaultFixture';
import { runSandboxed, shPolicy } from './runSandboxed';

const AGENT = 'native-coder';
const SESSION = 'ses_bridgeTest001';
/** What the fake upstream answers with when the request carried the real key (the key itself is never echoed). */
const ACCEPTED_LABEL = 'upstream-accepted-the-real-key';

// Prints the variables it was given, then asks the provider API's echo route through the base URL; curl's exit code
// last (7: could not connect).
const REQUEST = [
  'echo "base=$ANTHROPIC_BASE_URL key=$ANTHROPIC_API_KEY"',
  'env',
  'curl -sS -m 20 -H "x-api-key: $ANTHROPIC_API_KEY" "$ANTHROPIC_BASE_URL/v1/echo"; rc=$?; echo; echo "curl=$rc"',
].join('\n');

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 90_000);
} else {
  describe('native sandbox: the credential proxy through a bridge', () => {
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'omni-native-credbridge-')));
    const sandbox = createNativeSandbox({
      // The network-grant case: nothing on the "internet" is needed, only that a grant (a second bridge) is present.
      resolveHost: async () => ['127.0.0.1'],
    });
    const realKey = `sk-ant-local-${randomBytes(24).toString('base64url')}`;
    let upstream: FakeUpstream;
    let fixture: VaultFixture;
    let proxy: CredentialProxy;
    let env: Record<string, string>;

    before(async () => {
      upstream = await startFakeUpstream();
      upstream.accept(realKey, ACCEPTED_LABEL);
      fixture = await vaultFixture({ providers: [localAnthropic(upstream.origin)] });
      proxy = await startFixtureProxy(fixture);
      await fixture.connections.addApiKey({ provider: 'anthropic-local', apiKey: new Secret(realKey) });
      const capability = 'oauth:anthropic-local.api';
      fixture.consent.grant({ agentId: AGENT, sessionId: SESSION, capability, durationS: 600 }, 'user');
      const { handle } = fixture.connections.handles.issue({ agentId: AGENT, sessionId: SESSION, capability });
      env = proxy.envFor(handle);
    });
    after(async () => {
      proxy.dispose();
      fixture.close();
      await upstream.close();
      rmSync(workspace, { recursive: true, force: true });
    });

    const policy = (extra: Partial<LaunchPolicy> = {}) => shPolicy(workspace, REQUEST, { env, ...extra });

    it('listens on a 0600 unix socket in a 0700 folder of its own, besides 127.0.0.1', () => {
      assert.equal(statSync(proxy.socketPath).mode & 0o777, 0o600);
      assert.equal(statSync(join(proxy.socketPath, '..')).mode & 0o777, 0o700);
      assert.deepEqual(proxy.bridge, { port: Number(new URL(proxy.origin).port), socketPath: proxy.socketPath });
    });

    it('with the bridge, the sandboxed process reaches the proxy at the same URL; the upstream gets the real key, the process only the dummy', async () => {
      const seenBefore = upstream.seen.length;
      const result = await runSandboxed(sandbox, policy({ localServices: [proxy.bridge] }));
      assert.equal(result.code, 0, result.output);
      // The very URL proxyEnvFor hands out, unchanged inside the sandbox.
      assert.ok(result.output.includes(`base=${proxy.origin}/anthropic-local key=${env.ANTHROPIC_API_KEY}`), result.output);
      assert.match(env.ANTHROPIC_API_KEY, /^omni-proxy-/);
      assert.ok(result.output.includes(JSON.stringify({ credential: ACCEPTED_LABEL })), result.output);
      assert.match(result.output, /curl=0/);
      const forwarded = upstream.seen.slice(seenBefore);
      assert.equal(forwarded.length, 1);
      assert.equal(forwarded[0].path, '/v1/echo');
      assert.ok(forwarded[0].credential === realKey, 'the upstream got the real key');
      // The process's environment and everything it printed hold the dummy key only.
      assert.ok(!result.output.includes(realKey), 'the real key never reaches the sandboxed process');
      const entry = fixture.entries('credential.proxy_request').at(-1)!;
      assert.equal(entry.payload.path, '/v1/echo');
      assert.equal(entry.payload.status, 200);
    });

    it('with a network grant as well (two bridges), the proxy is reached directly, not through the allowlist proxy', async () => {
      const seenBefore = upstream.seen.length;
      const result = await runSandboxed(sandbox, policy({ localServices: [proxy.bridge], network: { allowDomains: ['*.allowed.test'] } }));
      assert.equal(result.code, 0, result.output);
      assert.match(result.output, /HTTPS_PROXY=http:\/\/127\.0\.0\.1:3128/);
      assert.ok(result.output.includes(JSON.stringify({ credential: ACCEPTED_LABEL })), result.output);
      assert.equal(upstream.seen.length, seenBefore + 1);
      assert.ok(!result.output.includes(realKey));
    });

    it('without the bridge, the same request cannot connect and nothing reaches the upstream', async () => {
      const seenBefore = upstream.seen.length;
      const result = await runSandboxed(sandbox, policy());
      assert.equal(result.code, 0, result.output);
      assert.match(result.output, /curl=7/);
      assert.ok(!result.output.includes(ACCEPTED_LABEL), result.output);
      assert.equal(upstream.seen.length, seenBefore);
    });

    it('the command itself still cannot open a unix socket (seccomp), bridge or not', async () => {
      const script = `python3 -c 'import socket; socket.socket(socket.AF_UNIX).connect("${proxy.socketPath}")' 2>&1; echo "py=$?"`;
      const result = await runSandboxed(sandbox, shPolicy(workspace, script, { localServices: [proxy.bridge] }));
      assert.match(result.output, /py=1/);
      assert.match(result.output, /PermissionError|Operation not permitted|not permitted/);
    });

    it('refuses a bridge on the allowlist proxy port, a port used twice or a relative socket path, naming the fix', async () => {
      const bad: LaunchPolicy['localServices'][] = [
        [{ port: 3128, socketPath: proxy.socketPath }],
        [proxy.bridge, proxy.bridge],
        [{ port: 0, socketPath: proxy.socketPath }],
        [{ port: proxy.bridge.port, socketPath: 'proxy.sock' }],
      ];
      for (const localServices of bad) {
        await assert.rejects(sandbox.prepareLaunch(policy({ localServices })), (error: unknown) => error instanceof NativeSandboxPolicyError && /localServices/.test(error.message));
      }
    });
  });
}
