// An ACP agent process in the native sandbox (issue 21 item 5): a small Node program installed like an adapter under
// <home>/acp-agents stands in for the agent, launched through the sandbox launcher with the real bwrap sandbox, the
// real credential proxy (its bridge), a fake provider API behind it, and a stand-in "internet" reached only through
// the egress proxy. It proves: node and the adapter folder are reachable; the workspace and the agent's config home
// are writable and nothing else of the host is; the user's home and the rest of the app home are hidden; its env has
// none of the user's provider variables, only the dummy key and the proxy's URL; the provider gets the real key
// through the credential proxy while the agent never sees it; other hosts are refused; kill() leaves no process.
// Run with HOME set to a temp dir (the test plants a stand-in ~/.ssh/id_rsa there and refuses another HOME).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAcpSandboxLauncher, type AcpAgentCredential } from '../../src-main/node/acp/acpSandboxLauncher';
import type { AcpAgentEntry } from '../../src-main/node/acp/acpAgentEntry';
import { createNativeSandbox, type NetworkRequestEvent } from '../../src-main/node/sandbox/native/nativeSandbox';
import type { SandboxProbe } from '../../src-main/node/sandbox/native/probeSandbox';
import type { CredentialProxy } from '../../src-main/node/vault/credentialProxy';
import { Secret } from '../../src-main/node/vault/secret';
import { waitFor } from '../helpers';
import { startFakeUpstream, type FakeUpstream } from '../vault/fakeUpstream';
import { memoryKeychain } from '../vault/memoryKeychain';
import { localAnthropic, startFixtureProxy, vaultFixture, type VaultFixture } from '../vault/vaultFixture';
import { installProbeAgent, probeClient, processesWith, PROBE_AGENT } from './probeAgentClient';

const INTERNET = '127.0.0.2';
const API_HOST = 'api.anthropic.test';
const SESSION = 'ses_acpSandbox001';
const ACCEPTED_LABEL = 'upstream-accepted-the-real-key';

const agentEntry = (id: string): AcpAgentEntry => ({ id, name: `probe as ${id}`, command: PROBE_AGENT, args: [], env: { PROBE_FROM_ENTRY: 'yes' }, source: 'user' });

const home = homedir();
const CANARIES: Record<string, string> = {
  ANTHROPIC_API_KEY: `sk-ant-users-own-${randomBytes(8).toString('hex')}`,
  ANTHROPIC_BASE_URL: 'https://users-own-gateway.example/anthropic',
  ANTHROPIC_AUTH_TOKEN: `users-own-token-${randomBytes(8).toString('hex')}`,
  OPENAI_API_KEY: `sk-users-own-openai-${randomBytes(8).toString('hex')}`,
  OPENAI_BASE_URL: 'https://users-own-gateway.example/openai',
  GEMINI_API_KEY: `users-own-gemini-${randomBytes(8).toString('hex')}`,
  GOOGLE_API_KEY: `users-own-google-${randomBytes(8).toString('hex')}`,
  CLAUDE_CODE_OAUTH_TOKEN: `users-own-oauth-${randomBytes(8).toString('hex')}`,
  GITHUB_TOKEN: `ghp_users_own_${randomBytes(8).toString('hex')}`,
};

describe('ACP agent process in the native sandbox', { skip: realpathSync(home).startsWith(realpathSync(tmpdir())) ? false : `HOME (${home}) is not a temp dir: run with HOME=$(mktemp -d)` }, () => {
  const appHome = join(home, '.omniscient-shell');
  const adapterDir = join(appHome, 'acp-agents');
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'omni-acp-ws-')));
  const realKey = `sk-ant-real-${randomBytes(24).toString('base64url')}`;
  const events: NetworkRequestEvent[] = [];
  const releases: string[] = [];
  let pkg: string;
  let internet: { server: Server; port: number; hits: string[] };
  let upstream: FakeUpstream;
  let fixture: VaultFixture;
  let proxy: CredentialProxy;
  let handle: string;
  const saved: Record<string, string | undefined> = {};

  const sandbox = createNativeSandbox({
    appHome,
    resolveHost: async (host) => (host.endsWith('.test') ? [INTERNET] : ['127.0.0.1']),
    trustedAddresses: new Set([INTERNET]),
  });
  const credential = async (): Promise<AcpAgentCredential> => ({
    env: proxy.envFor(handle),
    bridge: proxy.bridge,
    apiHosts: [API_HOST],
    release: () => releases.push(handle),
  });
  const launcher = createAcpSandboxLauncher({ sandbox, appHome, credential, onNetworkRequest: (event) => events.push(event), killGraceMs: 1000 });

  before(async () => {
    // The user's real home, as an agent must never see it.
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'SSH-KEY-CANARY');
    writeFileSync(join(home, 'notes.txt'), 'HOME-CANARY');
    mkdirSync(join(appHome, 'memory'), { recursive: true });
    writeFileSync(join(appHome, 'memory', 'sessions.db'), 'APP-HOME-CANARY');
    mkdirSync(join(appHome, 'acp', 'other-agent'), { recursive: true });
    writeFileSync(join(appHome, 'acp', 'other-agent', 'state.json'), 'OTHER-AGENT-CANARY');
    pkg = installProbeAgent(adapterDir);
    for (const [name, value] of Object.entries(CANARIES)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(`${req.headers.host}${req.url}`);
      res.end(`INTERNET ${req.headers.host}${req.url} key=${req.headers['x-api-key'] ?? '-'}`);
    });
    await new Promise<void>((resolve) => server.listen(0, INTERNET, resolve));
    internet = { server, port: (server.address() as AddressInfo).port, hits };
    upstream = await startFakeUpstream();
    upstream.accept(realKey, ACCEPTED_LABEL);
    fixture = await vaultFixture({ keychain: { keychain: memoryKeychain(), problem: null }, providers: [localAnthropic(upstream.origin)] });
    proxy = await startFixtureProxy(fixture);
    await fixture.connections.addApiKey({ provider: 'anthropic-local', apiKey: new Secret(realKey) });
    const capability = 'oauth:anthropic-local.api';
    fixture.consent.grant({ agentId: 'acp:claude', sessionId: SESSION, capability, durationS: 600 }, 'user');
    handle = fixture.connections.handles.issue({ agentId: 'acp:claude', sessionId: SESSION, capability }).handle;
  });
  after(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    proxy?.dispose();
    fixture?.close();
    await upstream?.close();
    internet?.server.close();
    sandbox.dispose();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('runs the adapter in the sandbox: node and its install folder reachable, only the workspace and its config home writable, the home hidden, the env clean, the provider reached only through the proxies; kill() leaves nothing', async () => {
    const started = Date.now();
    // The launch request's env as a careless caller might pass it: the host's whole environment, canaries included.
    const agent = await launcher.launch({ agent: agentEntry('claude'), sessionId: SESSION, workspace, env: { ...process.env } as Record<string, string> });
    const probe = probeClient(agent);
    try {
      assert.equal(agent.sandboxed, true);
      assert.equal(agent.unsandboxedReason, null);
      for (const item of ['bwrap', 'pidns', 'netns', 'seccomp', 'fs:writable-paths', 'network:allowlist-proxy', `local-service:${proxy.bridge.port}`]) {
        assert.ok(agent.enforced.includes(item), `${item} in ${agent.enforced.join(',')}`);
      }
      const whoami = await probe.ask({ op: 'whoami' });
      console.log(`  first answer from the sandboxed agent after ${Date.now() - started} ms`);
      assert.equal(whoami.version, process.version, 'the host node runs the adapter');
      assert.equal(whoami.argv1, join(pkg, 'index.js'), 'started from its install folder through node_modules/.bin');
      assert.equal(whoami.cwd, workspace);
      assert.notEqual(whoami.uid, 0, 'never root inside');

      // Writable: the workspace and the agent's own config home (its HOME), and they land on the host.
      const configHome = join(appHome, 'acp', 'claude');
      assert.equal((await probe.ask({ op: 'write', path: join(workspace, 'hello.txt'), text: 'from the agent' })).ok, true);
      assert.equal(readFileSync(join(workspace, 'hello.txt'), 'utf8'), 'from the agent');
      assert.equal((await probe.ask({ op: 'write', path: join(configHome, '.claude', 'settings.json'), text: '{}' })).ok, true);
      assert.equal(readFileSync(join(configHome, '.claude', 'settings.json'), 'utf8'), '{}');

      // Hidden: the user's home, the rest of the app home, another agent's config home.
      for (const path of [join(home, '.ssh', 'id_rsa'), join(home, 'notes.txt'), join(appHome, 'memory', 'sessions.db'), join(appHome, 'acp', 'other-agent', 'state.json')]) {
        const answer = await probe.ask({ op: 'read', path });
        assert.equal(answer.ok, undefined, `${path} was readable: ${JSON.stringify(answer)}`);
        assert.equal(answer.error, 'ENOENT', path);
      }
      // Not writable: the adapter's install folder, the system; writes anywhere else never reach the host.
      for (const path of [join(pkg, 'index.js'), join(adapterDir, 'planted.js'), '/usr/planted']) {
        const answer = await probe.ask({ op: 'write', path, text: 'x' });
        assert.ok(answer.error === 'EROFS' || answer.error === 'EACCES' || answer.error === 'EPERM', `${path}: ${JSON.stringify(answer)}`);
      }
      const escapes = [join(dirname(workspace), `omni-acp-escape-${randomBytes(4).toString('hex')}`), join(home, 'planted-by-agent.txt'), join(appHome, 'memory', 'planted')];
      for (const path of escapes) await probe.ask({ op: 'write', path, text: 'x' });
      for (const path of escapes) assert.equal(existsSync(path), false, `${path} reached the host`);
      assert.equal(readFileSync(join(pkg, 'index.js'), 'utf8'), readFileSync(join(__dirname, 'fixtures', 'probeAgent.mjs'), 'utf8'));

      // The env: the dummy key and the proxy's URL; none of the user's provider variables or tokens.
      const env = (await probe.ask({ op: 'env' })).env as Record<string, string>;
      const dump = JSON.stringify(env);
      for (const [name, value] of Object.entries(CANARIES)) assert.ok(!dump.includes(value), `the user's ${name} reached the agent`);
      assert.match(env.ANTHROPIC_API_KEY, /^omni-proxy-/);
      assert.equal(env.ANTHROPIC_BASE_URL, `${proxy.origin}/anthropic-local`);
      assert.deepEqual(Object.keys(env).filter((name) => /^(OPENAI|GEMINI|GOOGLE)_/.test(name) || name === 'ANTHROPIC_AUTH_TOKEN' || name.endsWith('_TOKEN')), []);
      assert.equal(env.HOME, configHome);
      assert.equal(env.CLAUDE_CONFIG_DIR, join(configHome, '.claude'));
      assert.equal(env.IS_SANDBOX, '1');
      assert.equal(env.PROBE_FROM_ENTRY, 'yes', "the entry's own variables pass");
      assert.equal(env.HTTPS_PROXY, 'http://127.0.0.1:3128');

      // The provider through the credential proxy: the real key is put on the request outside the sandbox.
      const seenBefore = upstream.seen.length;
      const viaCredentialProxy = await probe.ask({ op: 'http', url: `${env.ANTHROPIC_BASE_URL}/v1/echo`, headers: { 'x-api-key': env.ANTHROPIC_API_KEY } });
      assert.equal(viaCredentialProxy.status, 200, JSON.stringify(viaCredentialProxy));
      assert.deepEqual(JSON.parse(viaCredentialProxy.body as string), { credential: ACCEPTED_LABEL });
      assert.equal(upstream.seen.length, seenBefore + 1);
      assert.equal(upstream.seen.at(-1)!.credential, realKey, 'the provider got the real key');

      // The egress proxy: the provider's API host yes, anything else no (and the refusal is reported).
      const hitsBefore = internet.hits.length;
      const allowed = await probe.ask({ op: 'http', viaProxy: true, url: `http://${API_HOST}:${internet.port}/v1/ping` });
      assert.equal(allowed.status, 200, JSON.stringify(allowed));
      assert.match(allowed.body as string, /^INTERNET api\.anthropic\.test:\d+\/v1\/ping key=-$/);
      const refused = await probe.ask({ op: 'http', viaProxy: true, url: `http://evil.test:${internet.port}/exfil` });
      assert.equal(refused.status, 403, JSON.stringify(refused));
      const direct = await probe.ask({ op: 'http', url: `http://${INTERNET}:${internet.port}/direct` });
      assert.ok(direct.error, `a direct connection worked: ${JSON.stringify(direct)}`);
      const hostLoopback = await probe.ask({ op: 'http', url: `${upstream.origin}/v1/echo` });
      assert.ok(hostLoopback.error, `the host's loopback was reachable: ${JSON.stringify(hostLoopback)}`);
      assert.deepEqual(internet.hits.slice(hitsBefore), [`${API_HOST}:${internet.port}/v1/ping`]);
      assert.deepEqual(
        events.map((e) => [e.host, e.allowed, (e as { agentId?: string }).agentId]),
        [
          [API_HOST, true, 'claude'],
          ['evil.test', false, 'claude'],
        ],
      );
      assert.ok(!probe.stderr().includes(realKey));

      // kill(): the agent and a grandchild that left its session are gone.
      const marker = `omni-acp-grandchild-${randomBytes(6).toString('hex')}`;
      assert.equal((await probe.ask({ op: 'spawn', marker, detached: true })).ok, true);
      await waitFor(() => processesWith(marker).length === 1, 'the grandchild to run');
      const killStarted = Date.now();
      await agent.kill();
      console.log(`  kill() took ${Date.now() - killStarted} ms`);
      const exit = await agent.exited;
      assert.ok(exit.code !== 0 || exit.signal !== null, JSON.stringify(exit));
      await waitFor(() => processesWith(marker).length === 0, 'the grandchild to be gone', 5000);
      await waitFor(() => processesWith(join(pkg, 'index.js')).length === 0, 'the agent to be gone', 5000);
      assert.deepEqual(releases, [handle], 'the credential is released once the agent is gone');
    } finally {
      await agent.kill();
    }
  });

  it("a revoked grant (stillGranted false) refuses the next egress request to the provider's host mid-run", async () => {
    let live = true;
    const revocable = createAcpSandboxLauncher({ sandbox, appHome, credential: async () => ({ ...(await credential()), stillGranted: () => live }) });
    const agent = await revocable.launch({ agent: agentEntry('claude'), sessionId: SESSION, workspace, env: {} });
    const probe = probeClient(agent);
    try {
      const url = `http://${API_HOST}:${internet.port}/v1/before-revoke`;
      assert.equal((await probe.ask({ op: 'http', viaProxy: true, url })).status, 200);
      live = false;
      const after = await probe.ask({ op: 'http', viaProxy: true, url: `http://${API_HOST}:${internet.port}/v1/after-revoke` });
      assert.equal(after.status, 403, JSON.stringify(after));
      assert.ok(!internet.hits.some((hit) => hit.endsWith('/v1/after-revoke')));
    } finally {
      await agent.kill();
    }
  });

  it('without a usable sandbox, runs plain with the reason for the card; the env is as clean; kill() reaps its process group', async () => {
    const probeResult = sandbox.probeSandbox();
    const broken: SandboxProbe = { ...probeResult, usable: false, problem: { reason: 'bwrap_missing', message: 'bwrap not found', hint: 'install bubblewrap' } };
    const plain = createAcpSandboxLauncher({ sandbox: { ...sandbox, probeSandbox: () => broken }, appHome, credential, killGraceMs: 500 });
    assert.equal(plain.availability().sandboxed, false);
    assert.match(plain.availability().reason!, /native sandbox is unavailable here \(bwrap not found — install bubblewrap\)/);
    const agent = await plain.launch({ agent: agentEntry('claude'), sessionId: SESSION, workspace, env: { ...process.env } as Record<string, string> });
    const probe = probeClient(agent);
    try {
      assert.equal(agent.sandboxed, false);
      assert.equal(agent.unsandboxedReason, plain.availability().reason);
      const env = (await probe.ask({ op: 'env' })).env as Record<string, string>;
      const dump = JSON.stringify(env);
      for (const [name, value] of Object.entries(CANARIES)) assert.ok(!dump.includes(value), `the user's ${name} reached the plain agent`);
      assert.match(env.ANTHROPIC_API_KEY, /^omni-proxy-/);
      assert.equal(env.ANTHROPIC_BASE_URL, `${proxy.origin}/anthropic-local`);
      assert.equal(env.HOME, join(appHome, 'acp', 'claude'));
      assert.equal(env.IS_SANDBOX, undefined, 'a plain agent is not told it is sandboxed');
      const marker = `omni-acp-plain-child-${randomBytes(6).toString('hex')}`;
      assert.equal((await probe.ask({ op: 'spawn', marker, detached: false })).ok, true);
      await waitFor(() => processesWith(marker).length === 1, 'the child to run');
      await agent.kill();
      await waitFor(() => processesWith(marker).length === 0, 'the child to be gone', 5000);
    } finally {
      await agent.kill();
    }
  });

  it('says why there is no sandbox on macOS and Windows, and refuses to run plain when told to', async () => {
    for (const [platform, words] of [['darwin', /macOS sandbox adapter is not proven yet/], ['win32', /no native sandbox on Windows yet/]] as const) {
      const availability = createAcpSandboxLauncher({ sandbox, appHome, platform }).availability();
      assert.equal(availability.sandboxed, false);
      assert.match(availability.reason!, words);
    }
    const strict = createAcpSandboxLauncher({ sandbox: null, appHome, requireSandbox: true, platform: 'win32' });
    await assert.rejects(strict.launch({ agent: agentEntry('claude'), sessionId: SESSION, workspace, env: {} }), /refusing to start .* outside a sandbox/);
  });

  it('a missing program is ACP_AGENT_MISSING, naming where it was looked for', async () => {
    await assert.rejects(
      launcher.launch({ agent: { ...agentEntry('claude'), command: 'no-such-adapter' }, sessionId: SESSION, workspace, env: {} }),
      (error: unknown) => (error as { code?: string }).code === 'ACP_AGENT_MISSING' && /no-such-adapter.*acp-agents/.test((error as Error).message),
    );
  });
});
