import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConsentEngine } from '../../src-main/node/consent/consentEngine';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { AgentStore } from '../../src-main/node/sandbox/wasm/agentStore';
import { WasmSandbox } from '../../src-main/node/sandbox/wasm/wasmSandbox';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { tempDir, waitFor } from '../helpers';
import { callingGuest, wat, type GuestResponse } from './guests';
import { invokeInput } from './harness';

const AGENT = 'scaffolder';
const SESSION = 'ses_sandboxEngine01';
const code = (r: GuestResponse) => (r.ok ? 'ok' : r.error.code);

/** The sandbox wired to the real consent engine and ledger, on one SQLite file, as the host composes them. */
describe('the sandbox with the real consent engine', () => {
  const dir = tempDir('sandbox-engine');
  let db: Database;
  let ledger: Ledger;
  let engine: ConsentEngine;
  let sandbox: WasmSandbox;
  const workspace = join(dir.path, 'workspace');

  before(() => {
    mkdirSync(workspace);
    db = openDatabase(join(dir.path, 'sessions.db'));
    ledger = new Ledger(db);
    engine = new ConsentEngine(db, ledger, { onError: () => undefined });
    sandbox = new WasmSandbox({
      consent: engine,
      store: new AgentStore(db),
      audit: (entry) => ledger.append(entry),
      warmProcesses: 1,
      network: { trustedAddresses: new Set(['127.0.0.1']) },
    });
  });
  after(() => {
    sandbox.dispose();
    engine.dispose();
    ledger.dispose();
    db.close();
    dir.cleanup();
  });

  async function start(calls: { fn: string; req: unknown }[], capabilities: string[], deadlineMs = 10_000) {
    const agent = await sandbox.start({
      agentId: AGENT,
      sessionId: SESSION,
      workspaceRoot: workspace,
      module: await wat(callingGuest(calls)),
      capabilities,
      limits: { memBytes: 16 * 1024 * 1024, cpuMillicores: 1000, deadlineMs },
    });
    const responses: GuestResponse[] = [];
    agent.onLog(({ text }) => responses.push(JSON.parse(text) as GuestResponse));
    return { agent, responses };
  }

  it('writes inside a granted folder only, and each write is one ledger entry', async () => {
    engine.grant({ agentId: AGENT, sessionId: SESSION, capability: 'files.write', scope: 'out/**', durationS: 600 }, 'user');
    const { agent, responses } = await start(
      [
        { fn: 'files_write', req: { path: 'out/hello.txt', data_b64: Buffer.from('hi').toString('base64') } },
        { fn: 'files_write', req: { path: 'elsewhere.txt', data_b64: 'eA==' } },
      ],
      ['files.write'],
    );
    await agent.invoke(invokeInput());
    assert.deepEqual(responses.map(code), ['ok', 'capability_denied']);
    assert.equal(readFileSync(join(workspace, 'out/hello.txt'), 'utf8'), 'hi');
    assert.equal(existsSync(join(workspace, 'elsewhere.txt')), false);
    ledger.flush();
    const writes = ledger.after(0, 1000).filter((e) => e.type === 'agent.file_write');
    assert.deepEqual(writes.map((e) => e.payload), [{ path: 'out/hello.txt', bytes: 2 }]);
    agent.kill();
  });

  it("aborts a slow request when the user revokes the engine's grant; the guest is told capability_revoked", async () => {
    const hits: { at: number }[] = [];
    const server = createServer((_req, res) => {
      hits.push({ at: performance.now() });
      const timer = setTimeout(() => res.end('late'), 5000);
      res.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const grant = engine.grant({ agentId: AGENT, sessionId: SESSION, capability: 'network', scope: '127.0.0.1', durationS: 600 }, 'user');
      const { agent, responses } = await start(
        [
          { fn: 'net_fetch', req: { url: `${url}/slow`, method: 'GET' } },
          { fn: 'net_fetch', req: { url: `${url}/again`, method: 'GET' } },
        ],
        ['network'],
      );
      const run = agent.invoke(invokeInput());
      await waitFor(() => hits.length === 1, 'the request to reach the server');
      const revokedAt = performance.now();
      engine.revoke(grant.id, 'user');
      await run;
      assert.deepEqual(responses.map(code), ['capability_revoked', 'capability_revoked']);
      assert.ok(hits.every((h) => h.at <= revokedAt + 200));
      assert.equal(hits.length, 1);
      ledger.flush();
      assert.equal(ledger.after(0, 1000).filter((e) => e.type === 'consent.revoke').length, 1);
      agent.kill();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("does not count the time the user takes to answer a consent prompt against the agent's deadline", async () => {
    const channel = engine.attachChannel({
      prompt: () => new Promise((resolve) => setTimeout(() => resolve({ kind: 'allow_for', minutes: 10 }), 1500)),
    });
    try {
      const { agent, responses } = await start([{ fn: 'consent', req: { capability: 'memory', reason: 'to remember your choice', duration_s: 600 } }, { fn: 'kv_set', req: { key: 'choice', value: 'tabs' } }], ['memory'], 1000);
      await agent.invoke(invokeInput());
      assert.equal(responses[0].ok && responses[0].granted, true);
      assert.equal(code(responses[1]), 'ok');
      assert.equal(agent.state, 'idle', 'not killed for the 1.5 s the user took');
      agent.kill();
    } finally {
      channel.dispose();
    }
  });
  it('asks for a network write per action: a host grant does not cover a POST until the user allows that exact one', async () => {
    const posts: string[] = [];
    const server = createServer((req, res) => {
      if (req.method === 'POST') posts.push(req.url ?? '');
      res.end('created');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/items`;
    const channel = engine.attachChannel({ prompt: async () => ({ kind: 'allow_once' }) });
    try {
      engine.grant({ agentId: AGENT, sessionId: SESSION, capability: 'network', scope: '127.0.0.1', durationS: 600 }, 'user');
      const post = { fn: 'net_fetch', req: { url, method: 'POST', body_b64: Buffer.from('{}').toString('base64') } };
      const { agent, responses } = await start(
        [post, { fn: 'consent', req: { capability: 'network', target: '127.0.0.1', method: 'POST', action: url, reason: 'to create the item', duration_s: 60 } }, post],
        ['network'],
      );
      await agent.invoke(invokeInput());
      assert.deepEqual(responses.map(code), ['capability_denied', 'ok', 'ok']);
      assert.match(!responses[0].ok ? responses[0].error.hint : '', /asked for each time/);
      assert.deepEqual(posts, ['/items'], 'only the allowed POST reached the server');
      agent.kill();
    } finally {
      channel.dispose();
      server.closeAllConnections();
      server.close();
    }
  });
});
