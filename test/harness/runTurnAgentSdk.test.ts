// runTurnNonInteractive with the agent-sdk frontend: the REAL @anthropic-ai/claude-agent-sdk (test-only, from
// .cache/harness-clis; skipped when absent) and the Claude Code it runs, against the mock Anthropic Messages API.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { addDescendants, readProcTable } from '../../src-main/node/base/processTable';
import { isUuid, runTurnNonInteractive } from '../../src-main/node/harness';
import { waitFor } from '../helpers';
import { conversationOf, lastUserText, startMockProvider } from '../mockProviders';
import { agentSdkDir, gate, payloadTypes, PROXY_KEY, skipWithoutAgentSdk as skip, turnDirs, turnRequest } from './runTurnFixtures';

test('agent-sdk: a first turn reports the SDK session id as the continuation, on the response and on every event from the first', { skip }, async (t) => {
  const mock = await startMockProvider('anthropic');
  t.after(() => mock.close());
  const dirs = turnDirs(t);
  const { request, events } = turnRequest('agent-sdk', dirs, 'what is in this folder?', { spec: { instructions: 'Answer in one line.' } });

  const response = await runTurnNonInteractive(request, { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY }, agentSdkDir });

  assert.equal(response.result.status, 'completed', JSON.stringify(response.result));
  assert.equal(response.result.finalText, 'mock reply to: what is in this folder?');
  assert.equal(response.provider, 'anthropic');
  assert.equal(response.frontend, 'agent-sdk');
  const key = response.continuation?.key;
  assert.ok(key !== undefined && isUuid(key), `a session id: ${JSON.stringify(response.continuation)}`);
  assert.equal(response.continuation?.provider, 'anthropic');

  // The key is the SDK's own session id (every message carries it), and the first event already shows it.
  assert.equal(payloadTypes(events)[0], 'system');
  assert.ok(events.length > 3);
  for (const event of events) {
    assert.deepEqual(event.continuation, { provider: 'anthropic', key });
    assert.equal((event.payload as { session_id?: string }).session_id, key);
    assert.equal(event.cpSessionId, 'cps_1');
    assert.equal(event.runId, request.runId);
  }
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i));
  assert.ok(payloadTypes(events).includes('stream_event'), 'token-level events reach the host');
  assert.equal(payloadTypes(events).at(-1), 'result');

  // What reached the model API: the stand-in key (the only key this code ever sees), the prompt, the instructions.
  const [turn] = mock.turns();
  assert.equal(turn.apiKey, PROXY_KEY);
  assert.equal(lastUserText(turn), 'what is in this folder?');
  assert.match(JSON.stringify(turn.body), /Answer in one line\./);
  // The conversation lives in the harness home, where the claude-code CLI harness looks for it too.
  assert.ok(existsSync(join(dirs.aspHome, 'claude-code', 'config', 'projects', dirs.workspace.replace(/[^a-zA-Z0-9]/g, '-'), `${key}.jsonl`)));
});

test('agent-sdk: a turn with the key continues the conversation (the model receives the earlier prompt and answer) under the same key', { skip }, async (t) => {
  const mock = await startMockProvider('anthropic');
  t.after(() => mock.close());
  const dirs = turnDirs(t);
  const options = { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY }, agentSdkDir };
  const first = await runTurnNonInteractive(turnRequest('agent-sdk', dirs, 'remember the word walnut').request, options);
  assert.equal(first.result.status, 'completed', JSON.stringify(first.result));

  const { request, events } = turnRequest('agent-sdk', dirs, 'which word did I ask you to remember?', { continuation: first.continuation });
  const second = await runTurnNonInteractive(request, options);

  assert.equal(second.result.status, 'completed', JSON.stringify(second.result));
  assert.deepEqual(second.continuation, first.continuation, 'the SDK keeps the session id when it resumes');
  for (const event of events) assert.deepEqual(event.continuation, first.continuation);
  const conversation = conversationOf(mock.turns().at(-1)!);
  const said = (role: string, text: string) => conversation.some((turn) => turn.role === role && turn.parts.some((part) => part.includes(text)));
  assert.ok(said('user', 'remember the word walnut'), 'the earlier prompt is sent again');
  assert.ok(said('assistant', 'mock reply to: remember the word walnut'), 'the earlier answer is sent again');
  assert.equal(lastUserText(mock.turns().at(-1)!), 'which word did I ask you to remember?');

  // Claude Code finds a conversation only from the folder it began in: from elsewhere the turn is refused up front.
  const elsewhere = join(dirs.root, 'elsewhere');
  mkdirSync(elsewhere);
  const sent = mock.turns().length;
  await assert.rejects(runTurnNonInteractive(turnRequest('agent-sdk', { ...dirs, workspace: elsewhere }, 'hello?', { continuation: first.continuation }).request, options), {
    code: 'HARNESS_RESUME_CWD_MISMATCH',
    message: new RegExp(`started in ${dirs.workspace}`),
  });
  assert.equal(mock.turns().length, sent);
});

test('agent-sdk: aborting while the model is answering ends the turn as cancelled, with the key it had observed', { skip }, async (t) => {
  const arrived = gate();
  const never = gate();
  const mock = await startMockProvider('anthropic', {
    script: async () => {
      arrived.open();
      await never.opened; // the model never answers; only the abort can end this turn
      return { text: 'too late' };
    },
  });
  t.after(async () => {
    never.open();
    await mock.close();
  });
  const dirs = turnDirs(t);
  const controller = new AbortController();
  const { request, events } = turnRequest('agent-sdk', dirs, 'take your time');
  const turn = runTurnNonInteractive(request, { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY }, agentSdkDir, signal: controller.signal });
  await arrived.opened;
  assert.ok(liveChildren().length > 0, 'Claude Code runs while the model is asked');
  controller.abort();
  const response = await turn;
  await waitFor(() => liveChildren().length === 0, 'the Claude Code process the SDK started to exit after the abort');

  assert.equal(response.result.status, 'cancelled');
  assert.equal(response.result.error?.code, 'HARNESS_TURN_CANCELLED');
  assert.ok(response.continuation?.key !== undefined && isUuid(response.continuation.key), 'the session had started; its key is kept');
  assert.ok(events.length > 0);
  assert.ok(!payloadTypes(events).includes('result'), 'no result event: the model never finished');
});

test('agent-sdk: an error from the model API ends the turn as failed with the provider\'s message', { skip }, async (t) => {
  const mock = await startMockProvider('anthropic', { script: () => ({ error: { status: 400, type: 'invalid_request_error', message: 'mock-model-7 is not enabled for this key' } }) });
  t.after(() => mock.close());
  const dirs = turnDirs(t);
  const { request } = turnRequest('agent-sdk', dirs, 'hello');
  const response = await runTurnNonInteractive(request, { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY }, agentSdkDir });
  assert.equal(response.result.status, 'failed');
  assert.equal(response.result.error?.code, 'AGENT_SDK_API_ERROR');
  assert.match(response.result.error?.message ?? '', /400 mock-model-7 is not enabled for this key/);
});

/** Running Claude Code processes this test process started, however deep (the SDK's native build). */
function liveChildren(): number[] {
  const table = readProcTable();
  const members = new Set([process.pid]);
  addDescendants(table, members);
  const isClaude = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('claude-agent-sdk');
    } catch {
      return false; // it exited while we looked
    }
  };
  return table.filter((entry) => entry.pid !== process.pid && members.has(entry.pid) && entry.state !== 'Z' && isClaude(entry.pid)).map((entry) => entry.pid);
}

test('agent-sdk: nobody can approve a tool call during a non-interactive turn, so by default Bash is denied and nothing runs; the user\'s home is not touched', { skip }, async (t) => {
  const dirs = turnDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const savedHome = process.env.HOME;
  process.env.HOME = home;
  t.after(() => {
    process.env.HOME = savedHome;
  });
  const marker = join(dirs.workspace, 'made-by-the-model');
  const mock = await startMockProvider('anthropic', {
    script: (request) =>
      conversationOf(request).some((turn) => turn.role === 'tool') ? { text: 'could not do it' } : { toolCalls: [{ name: 'Bash', input: { command: `touch '${marker}'`, description: 'make a file' } }] },
  });
  t.after(() => mock.close());

  const response = await runTurnNonInteractive(turnRequest('agent-sdk', dirs, 'make a file').request, { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY }, agentSdkDir });

  assert.equal(response.result.status, 'completed', JSON.stringify(response.result));
  assert.equal(existsSync(marker), false, 'the command did not run');
  const toolResult = conversationOf(mock.turns().at(-1)!).find((turn) => turn.role === 'tool');
  assert.match(toolResult?.text ?? '', /Permission to use Bash has been denied/);
  assert.deepEqual(readdirSync(home), [], 'Claude Code kept its state in the harness home, not in ~/.claude');

  // Claude Code refuses to bypass permissions as root, so for uid 0 "bypass" means asking, i.e. denying, too.
  const asRoot = await runTurnNonInteractive(turnRequest('agent-sdk', dirs, 'make a file, no questions').request, {
    endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY },
    agentSdkDir,
    permissionMode: 'bypass',
    uid: 0,
  });
  assert.equal(asRoot.result.status, 'completed', JSON.stringify(asRoot.result));
  assert.equal(existsSync(marker), false, 'the command did not run');
  assert.match(conversationOf(mock.turns().at(-1)!).find((turn) => turn.role === 'tool')?.text ?? '', /Permission to use Bash has been denied/);
});
