// omni.shell: a WASM agent runs commands through the host's shell tool. Every command line is a sensitive action
// (asked for on a consent card naming the argv and cwd, unless a live grant covers exactly it), and runs inside the
// native sandbox, its workspace writes committed only when it succeeds.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ConsentAnswer, ConsentPrompt } from '../../src-preload/contract';
import { ConsentEngine } from '../../src-main/node/consent/consentEngine';
import { agentRunLauncher } from '../../src-main/node/exec/agentRunLauncher';
import { ExecService } from '../../src-main/node/exec/execService';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { createNativeSandbox } from '../../src-main/node/sandbox/native/nativeSandbox';
import { AgentStore } from '../../src-main/node/sandbox/wasm/agentStore';
import { WasmSandbox } from '../../src-main/node/sandbox/wasm/wasmSandbox';
import { SessionService } from '../../src-main/node/sessions/sessionService';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';
import { callingGuest, wat, type GuestResponse } from './guests';

const AGENT = 'builder';
const code = (r: GuestResponse) => (r.ok ? 'ok' : r.error.code);
/** The body of a successful answer, as the shell tool's result. */
function answered<T>(response: GuestResponse): T {
  assert.ok(response.ok, JSON.stringify(response));
  return response as unknown as T;
}

describe('omni.shell: commands an agent runs', () => {
  const dir = tempDir('agent-shell');
  const workspace = join(dir.path, 'workspace');
  let db: Database;
  let ledger: Ledger;
  let engine: ConsentEngine;
  let exec: ExecService;
  let sandbox: WasmSandbox;
  let sessionId: string;
  const asked: ConsentPrompt[] = [];
  const answers: ConsentAnswer[] = [];

  before(async () => {
    mkdirSync(workspace);
    db = openDatabase(join(dir.path, 'sessions.db'));
    ledger = new Ledger(db);
    const sessions = new SessionService(db, ledger);
    sessionId = sessions.create(workspace, 'shell test', 'user').id;
    engine = new ConsentEngine(db, ledger, { onError: () => undefined });
    engine.attachChannel({
      prompt: (prompt) => {
        asked.push(prompt);
        return Promise.resolve(answers.shift() ?? { kind: 'deny' });
      },
    });
    exec = new ExecService(db, ledger, {
      launcher: agentRunLauncher({ sandbox: createNativeSandbox({ appHome: join(dir.path, 'home') }), sessions, consent: engine, resourcesOf: () => undefined }),
      onError: () => undefined,
    });
    await exec.start();
    sandbox = new WasmSandbox({ consent: engine, store: new AgentStore(db), warmProcesses: 1, shell: (request, caller) => exec.shell(request, caller) });
  });
  after(async () => {
    sandbox.dispose();
    await exec.dispose();
    engine.dispose();
    ledger.dispose();
    db.close();
    dir.cleanup();
  });

  async function runGuest(calls: { fn: string; req: unknown }[], capabilities = ['process.exec']): Promise<GuestResponse[]> {
    const agent = await sandbox.start({
      agentId: AGENT,
      sessionId,
      workspaceRoot: workspace,
      module: await wat(callingGuest(calls)),
      capabilities,
      limits: { memBytes: 16 * 1024 * 1024, cpuMillicores: 1000, deadlineMs: 20_000 },
    });
    const responses: GuestResponse[] = [];
    agent.onLog(({ text }) => responses.push(JSON.parse(text) as GuestResponse));
    await agent.invoke({ schema_version: '0.1', agent_id: AGENT, prompt: 'go', context_refs: [] });
    agent.kill();
    return responses;
  }

  it('asks for each command line with its argv and cwd; allowed, it runs sandboxed and its writes land; denied, nothing runs', async () => {
    mkdirSync(join(workspace, 'src'), { recursive: true });
    answers.push({ kind: 'allow_once' }, { kind: 'deny' });
    const responses = await runGuest([
      { fn: 'shell', req: { command: 'echo built > out.txt && cat out.txt && pwd', cwd: 'src', reason: 'to build the project' } },
      { fn: 'shell', req: { command: 'rm -rf ..' } },
    ]);
    assert.deepEqual(responses.map(code), ['ok', 'capability_denied']);
    assert.deepEqual(
      asked.map((p) => [p.capability, p.action, p.reason]),
      [
        ['process.exec', '["/bin/sh","-c","echo built > out.txt && cat out.txt && pwd"] in src', 'to build the project'],
        ['process.exec', '["/bin/sh","-c","rm -rf .."] in .', 'run ["/bin/sh","-c","rm -rf .."] in .'],
      ],
    );
    const ran = answered<{ status: string; exit_code: number; stdout: string; run_id: string }>(responses[0]);
    assert.equal(ran.status, 'exited');
    assert.equal(ran.exit_code, 0);
    assert.equal(ran.stdout, `built\n${join(workspace, 'src')}\n`);
    assert.equal(readFileSync(join(workspace, 'src/out.txt'), 'utf8'), 'built\n');
    assert.ok(existsSync(join(workspace, 'src')), 'the denied command never ran');

    // The run is the agent's, and the sandbox says what it enforced.
    const [run] = exec.listRuns(sessionId);
    assert.equal(run.actor, `agent:${AGENT}`);
    for (const item of ['bwrap', 'seccomp', 'network:none', 'staged-writes']) assert.ok(run.sandbox.includes(item), `${item} missing from ${run.sandbox.join(', ')}`);
  });

  it('cannot write outside the workspace; a failing command leaves none of its writes', async () => {
    answers.push({ kind: 'allow_once' }, { kind: 'allow_once' });
    const outside = join(dir.path, 'outside.txt');
    const responses = await runGuest([
      { fn: 'shell', req: { command: `echo escaped > ${outside}` } },
      { fn: 'shell', req: { command: 'echo partial > partial.txt; exit 3' } },
    ]);
    assert.deepEqual(responses.map(code), ['ok', 'ok']);
    // The path's folder is above the workspace, so inside the sandbox it lies in the run's private /tmp: the write
    // may "succeed" there, and nothing reaches the machine.
    assert.equal(existsSync(outside), false);
    assert.equal(answered<{ exit_code: number }>(responses[1]).exit_code, 3);
    assert.equal(existsSync(join(workspace, 'partial.txt')), false);
  });

  it('refuses an agent that did not declare process.exec, bad requests, with typed errors', async () => {
    const undeclared = await sandbox
      .start({ agentId: AGENT, sessionId, workspaceRoot: workspace, module: await wat(callingGuest([{ fn: 'shell', req: { command: 'true' } }])), capabilities: [], limits: { memBytes: 16 * 1024 * 1024, cpuMillicores: 1000, deadlineMs: 5000 } })
      .then(
        () => 'started',
        (error: Error) => error.message,
      );
    assert.match(undeclared, /omni\.shell.*process\.exec|process\.exec.*omni\.shell/);

    const before = asked.length;
    const responses = await runGuest([
      { fn: 'shell', req: { action: 'launch', command: 'true' } },
      { fn: 'shell', req: { action: 'poll', run_id: 'run_notarunatall' } },
      { fn: 'shell', req: { action: 'spawn' } },
    ]);
    assert.deepEqual(responses.map(code), ['bad_request', 'not_found', 'bad_request']);
    assert.equal(asked.length, before, 'a bad request is refused before anyone is asked');
  });
});
