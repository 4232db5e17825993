// "Allow once" covers one call (issue 23 item 4): a later call of the same run that no grant covers raises a new
// consent prompt instead of a silent capability_denied, so an agent that ignores a refused call cannot report a
// wrong count as complete. The run's spent once-grants leave the grants list when it ends. A network ask for an
// address the policy blocks anyway (127.0.0.1) is refused before anyone is asked, with the reason. Real consent
// engine, ledger, SQLite, sandbox process and workspace files.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { ConsentAnswer, ConsentPrompt } from '../../src-preload/contract';
import { ConsentEngine } from '../../src-main/node/consent/consentEngine';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { AgentStore } from '../../src-main/node/sandbox/wasm/agentStore';
import { WasmSandbox } from '../../src-main/node/sandbox/wasm/wasmSandbox';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';
import { callingGuest, wat, type GuestResponse } from './guests';
import { invokeInput } from './harness';

const AGENT = 'workspace-summary';
const code = (r: GuestResponse) => (r.ok ? 'ok' : r.error.code);
let sessionCounter = 0;

describe('"Allow once" covers one call; the next one asks again', () => {
  const dir = tempDir('allow-once');
  let db: Database;
  let ledger: Ledger;
  let engine: ConsentEngine;
  let sandbox: WasmSandbox;
  const workspace = join(dir.path, 'workspace');
  let answers: ConsentAnswer['kind'][];
  let prompts: ConsentPrompt[];
  let channel: { dispose(): void };

  before(() => {
    mkdirSync(join(workspace, 'sub'), { recursive: true });
    for (const file of ['a.txt', 'b.md', 'sub/c.txt', 'sub/d.txt']) writeFileSync(join(workspace, file), file);
    db = openDatabase(join(dir.path, 'sessions.db'));
    ledger = new Ledger(db);
    engine = new ConsentEngine(db, ledger, { onError: () => undefined });
    sandbox = new WasmSandbox({ consent: engine, store: new AgentStore(db), warmProcesses: 1 });
  });
  afterEach(() => channel?.dispose());
  after(() => {
    sandbox.dispose();
    engine.dispose();
    ledger.dispose();
    db.close();
    dir.cleanup();
  });

  /** The user answers each prompt in turn with `script` (the last answer repeats). */
  function user(script: ConsentAnswer['kind'][]): void {
    answers = [...script];
    prompts = [];
    channel = engine.attachChannel({
      prompt: async (prompt) => {
        prompts.push(prompt);
        const kind = answers.length > 1 ? answers.shift()! : answers[0];
        return kind === 'allow_for' ? { kind, minutes: 10 } : { kind };
      },
    });
  }

  async function run(calls: { fn: string; req: unknown }[], capabilities: string[]) {
    const sessionId = `ses_allowOnce0${++sessionCounter}`;
    const agent = await sandbox.start({ agentId: AGENT, sessionId, workspaceRoot: workspace, module: await wat(callingGuest(calls)), capabilities, limits: { memBytes: 16 * 1024 * 1024, cpuMillicores: 1000, deadlineMs: 10_000 } });
    const responses: GuestResponse[] = [];
    agent.onLog(({ text }) => responses.push(JSON.parse(text) as GuestResponse));
    await agent.invoke(invokeInput());
    return { agent, responses, sessionId };
  }

  const ask = { fn: 'consent', req: { capability: 'files.read', reason: 'to list and count the files in your workspace', duration_s: 600 } };

  it('asks again for each later call, naming its target with the same reason; every listing of the 4 files comes back', async () => {
    user(['allow_once']);
    const { agent, responses, sessionId } = await run([ask, { fn: 'files_list', req: { path: '.' } }, { fn: 'files_list', req: { path: 'sub' } }, { fn: 'files_read', req: { path: 'sub/c.txt' } }], ['files.read']);
    assert.deepEqual(responses.map(code), ['ok', 'ok', 'ok', 'ok']);
    const listed = responses.slice(1, 3).flatMap((r) => (r.ok ? (r.entries as { name: string }[]).map((e) => e.name) : []));
    assert.deepEqual(listed.sort(), ['a.txt', 'b.md', 'c.txt', 'd.txt', 'sub']);
    assert.deepEqual(
      prompts.map((p) => p.target),
      [null, 'sub', 'sub/c.txt'],
      'the first ask, then one new prompt per later call',
    );
    assert.ok(prompts.every((p) => p.reason === 'to list and count the files in your workspace'));
    assert.ok(prompts.slice(1).every((p) => p.scope === '**'), 'the new prompt offers what the first one did');
    assert.equal(engine.list(sessionId).length, 3, 'three used once-grants while the run is going');
    agent.kill();
    assert.deepEqual(engine.list(sessionId), [], 'the run is over: its used once-grants leave the list');
  });

  it('an "Allow for 10 minutes" on the new prompt covers the rest of the run without more prompts', async () => {
    user(['allow_once', 'allow_for']);
    const { agent, responses, sessionId } = await run([ask, { fn: 'files_list', req: { path: '.' } }, { fn: 'files_list', req: { path: 'sub' } }, { fn: 'files_read', req: { path: 'a.txt' } }, { fn: 'files_read', req: { path: 'sub/d.txt' } }], ['files.read']);
    assert.deepEqual(responses.map(code), ['ok', 'ok', 'ok', 'ok', 'ok']);
    assert.equal(prompts.length, 2);
    agent.kill();
    assert.deepEqual(
      engine.list(sessionId).map((g) => [g.once, g.status]),
      [[false, 'live']],
      'the timed grant stays; the spent once-grant goes with the run',
    );
  });

  it('denied on the new prompt: that call is refused saying so, and later calls are refused without asking', async () => {
    user(['allow_once', 'deny']);
    const { agent, responses } = await run([ask, { fn: 'files_list', req: { path: '.' } }, { fn: 'files_list', req: { path: 'sub' } }, { fn: 'files_read', req: { path: 'a.txt' } }], ['files.read']);
    assert.deepEqual(responses.map(code), ['ok', 'ok', 'capability_denied', 'capability_denied']);
    assert.match(!responses[2].ok ? responses[2].error.message : '', /asked again and not allowed: the user denied it/);
    assert.equal(prompts.length, 2);
    agent.kill();
  });

  it('without an earlier "Allow once" nothing is asked on a refused call: the agent asks itself', async () => {
    user(['allow_once']);
    const { agent, responses } = await run([{ fn: 'files_list', req: { path: '.' } }], ['files.read']);
    assert.deepEqual(responses.map(code), ['capability_denied']);
    assert.equal(prompts.length, 0);
    agent.kill();
  });

  it('a network ask for 127.0.0.1 is refused before asking, with the reason; a fetch of it is blocked without asking', async () => {
    user(['allow_once']);
    const { agent, responses } = await run(
      [
        { fn: 'consent', req: { capability: 'network', target: '127.0.0.1', reason: 'to fetch http://127.0.0.1:9/ and report its status', duration_s: 300 } },
        { fn: 'net_fetch', req: { url: 'http://127.0.0.1:9/', method: 'GET' } },
        { fn: 'net_fetch', req: { url: 'http://localhost:9/', method: 'GET' } },
      ],
      ['network'],
    );
    assert.equal(prompts.length, 0, 'nobody was asked');
    const refused = responses[0];
    assert.equal(refused.ok && refused.granted, false);
    assert.match(refused.ok ? String(refused.reason) : '', /127\.0\.0\.1 is a loopback address; agents may reach only public internet addresses/);
    assert.deepEqual(responses.slice(1).map(code), ['blocked_address', 'blocked_address']);
    assert.match(!responses[2].ok ? responses[2].error.message : '', /localhost is this machine/);
    agent.kill();
  });
});
