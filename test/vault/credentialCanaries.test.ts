// 50 canary API keys go through the credentials backend's real paths: stored in the OS keychain, injected by the
// proxy toward a local upstream for 50 native processes that get only the proxy's env, half of them disconnected
// again. Then none of them may appear in the database file (+ -wal, -shm), the ledger or an export of it, anything
// the host printed, what the Connections API answers, or any child process's env, argv, stdout or stderr, while
// each key did reach the upstream (so each was really used). Real keychain: a private gnome-keyring when needed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportLedger } from '../../src-main/node/ledger/ledgerExport';
import type { CredentialProxy } from '../../src-main/node/vault/credentialProxy';
import { Secret } from '../../src-main/node/vault/secret';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { assertNoCanaryIn, randomText, TOKEN_SHAPES, type Canary } from './canaries';
import { startFakeUpstream, type FakeUpstream } from './fakeUpstream';
import { STREAMING_CLIENT } from './streamingClient';
import { localAnthropic, startFixtureProxy, vaultFixture, type VaultFixture } from './vaultFixture';

const CANARY_COUNT = 50;
const SESSION = 'ses_canaryProxy01';

/** API keys of the shapes keys have (provider formats, plus shapeless random ones), none with whitespace. */
function canaryKeys(count: number): Canary[] {
  const shapes = Object.entries(TOKEN_SHAPES).filter(([, make]) => {
    const sample = make();
    return sample.standalone && !/\s/.test(sample.value);
  });
  return Array.from({ length: count }, (_, index): Canary => {
    if (index % 3 === 0) {
      const value = randomText(40);
      return { index, kind: 'random', value, text: value, registered: true, standalone: true };
    }
    const [kind, make] = shapes[index % shapes.length];
    const value = make().value;
    return { index, kind, value, text: value, registered: true, standalone: true };
  });
}

function runClient(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', STREAMING_CLIENT, '3', '1'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((entry) => join(dir, entry))
    .filter((path) => statSync(path).isFile());
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 240_000);
} else {
  describe(`${CANARY_COUNT} canary keys through the credentials backend`, () => {
    const canaries = canaryKeys(CANARY_COUNT);
    let upstream: FakeUpstream;
    let fixture: VaultFixture;
    let proxy: CredentialProxy;
    const childOutputs: { env: Record<string, string>; stdout: string; stderr: string }[] = [];

    before(async () => {
      upstream = await startFakeUpstream();
      fixture = await vaultFixture({ providers: [localAnthropic(upstream.origin)] });
      proxy = await startFixtureProxy(fixture);
    });
    after(async () => {
      proxy.dispose();
      fixture.close();
      await upstream.close();
    });

    it('each key is stored, used through the proxy by its own process, and half are disconnected again', async () => {
      const connectionIds: string[] = [];
      const envs: Record<string, string>[] = [];
      // Connect and issue one by one: a handle goes to the provider's newest connection, which must be this one.
      for (const canary of canaries) {
        upstream.accept(canary.value, `canary-${canary.index}`);
        const provider = canary.index % 2 === 0 ? 'openai-compatible' : 'anthropic-local';
        const connection = await fixture.connections.addApiKey({
          provider,
          apiKey: new Secret(canary.value),
          label: `key ${canary.index}`,
          ...(provider === 'openai-compatible' ? { baseUrl: `${upstream.origin}/v1` } : {}),
        });
        connectionIds.push(connection.id);
        const agentId = `agent-${canary.index}`;
        const capability = `oauth:${provider}.api`;
        fixture.consent.grant({ agentId, sessionId: SESSION, capability, durationS: 600 }, 'user');
        const { handle, record } = fixture.connections.handles.issue({ agentId, sessionId: SESSION, capability });
        assert.equal(record.connectionId, connection.id);
        envs.push(proxy.envFor(handle));
      }
      // The processes run a few at a time (the machine is shared).
      for (let i = 0; i < envs.length; i += 5) {
        await Promise.all(
          envs.slice(i, i + 5).map(async (env, j) => {
            const index = i + j;
            const run = await runClient(env);
            childOutputs.push({ env, stdout: run.stdout, stderr: run.stderr });
            assert.equal(run.code, 0, run.stderr);
            assert.ok(run.stdout.includes(`\\"label\\":\\"canary-${index}\\"`), `process ${index} got its stream with its own key injected`);
          }),
        );
      }
      for (const id of connectionIds.filter((_, i) => i % 2 === 1)) await fixture.connections.disconnect(id);
      assert.equal(fixture.entries('credential.connect').length, CANARY_COUNT);
      assert.equal(fixture.entries('credential.proxy_request').length, CANARY_COUNT);
      assert.equal(fixture.entries('credential.revoke').length, CANARY_COUNT / 2);
      // Every key reached the upstream, so each canary was really in play.
      for (const canary of canaries) assert.ok(upstream.seen.some((s) => s.credential === canary.value), `canary #${canary.index} was never used`);
    });

    it('no canary in the database file, its -wal and -shm, the ledger, an export, the log, the API, or any process', async () => {
      fixture.ledger.flush();
      fixture.log.error('connections after the run:', fixture.connections.list());
      for (const file of ['', '-wal', '-shm']) {
        if (existsSync(fixture.dbFile + file)) assertNoCanaryIn(canaries, readFileSync(fixture.dbFile + file), `sessions.db${file}`);
      }
      assert.ok(existsSync(`${fixture.dbFile}-wal`), 'the WAL was checked while the database is open');
      const ledgerRows = fixture.db.prepare<[], { payload: string }>('SELECT payload FROM audit_ledger').all();
      assert.ok(ledgerRows.length > CANARY_COUNT * 3);
      assertNoCanaryIn(canaries, ledgerRows.map((r) => r.payload).join('\n'), 'the ledger payloads');
      const exported = join(fixture.home, 'export.jsonl');
      await exportLedger(fixture.db, exported);
      assertNoCanaryIn(canaries, readFileSync(exported), 'the ledger export');
      assertNoCanaryIn(canaries, fixture.logLines.join(''), 'the host log');
      // What the host API answers goes to the renderer unscrubbed: it must hold no secret of its own accord.
      assertNoCanaryIn(canaries, JSON.stringify({ list: fixture.connections.list({ includeDisconnected: true }), handles: fixture.connections.handles.list(), providers: fixture.connections.providers() }), 'the Connections API');
      assert.equal(childOutputs.length, CANARY_COUNT);
      for (const [i, child] of childOutputs.entries()) {
        assertNoCanaryIn(canaries, JSON.stringify(child.env), `process ${i}'s env`);
        assertNoCanaryIn(canaries, child.stdout, `process ${i}'s stdout (its env and argv as it saw them, and its stream)`);
        assertNoCanaryIn(canaries, child.stderr, `process ${i}'s stderr`);
      }
      for (const file of filesUnder(fixture.home)) assertNoCanaryIn(canaries, readFileSync(file), file);
    });
  });
}
