// runTurnNonInteractive with the pi-sdk frontend (the harness's own OpenAI Responses client) against the mock
// OpenAI Responses API, which keeps a previous_response_id chain the way the provider does.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runTurnNonInteractive, type BaseEvent } from '../../src-main/node/harness';
import { conversationOf, lastUserText, startMockProvider } from '../mockProviders';
import { gate, payloadTypes, PROXY_KEY, turnDirs, turnRequest } from './runTurnFixtures';

test('pi-sdk: a first turn returns the response id as the continuation, and every event from response.created carries it', async (t) => {
  const mock = await startMockProvider('openai');
  t.after(() => mock.close());
  const dirs = turnDirs(t);
  const { request, events } = turnRequest('pi-sdk', dirs, 'name three rivers', { model: 'gpt-5-codex', spec: { instructions: 'Be brief.' } });

  const response = await runTurnNonInteractive(request, { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY } });

  assert.deepEqual(response.result, { status: 'completed', finalText: 'mock reply to: name three rivers' });
  assert.equal(response.provider, 'openai');
  assert.equal(response.frontend, 'pi-sdk');
  assert.equal(response.model, 'gpt-5-codex');
  const [turn] = mock.turns();
  const created = events.find((event) => payloadTypes([event])[0] === 'response.created');
  const key = (created?.payload as { response: { id: string } }).response.id;
  assert.match(key, /^resp_/);
  assert.deepEqual(response.continuation, { provider: 'openai', key });
  assert.equal(payloadTypes(events)[0], 'response.created');
  assert.equal(payloadTypes(events).at(-1), 'response.completed');
  for (const event of events) assert.deepEqual(event.continuation, { provider: 'openai', key });
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i));

  assert.equal(turn.apiKey, PROXY_KEY, 'the stand-in key is what reaches the API');
  assert.deepEqual(conversationOf(turn).map((t) => [t.role, t.text]), [['system', 'Be brief.'], ['user', 'name three rivers']]);
  assert.equal((turn.body as { previous_response_id?: unknown }).previous_response_id, undefined);
});

test('pi-sdk: a turn with the key sends it as previous_response_id, so the model gets the earlier conversation; the key moves to the new response', async (t) => {
  const mock = await startMockProvider('openai');
  t.after(() => mock.close());
  const dirs = turnDirs(t);
  const options = { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY } };
  const first = await runTurnNonInteractive(turnRequest('pi-sdk', dirs, 'remember the word walnut').request, options);
  const { request, events } = turnRequest('pi-sdk', dirs, 'which word was it?', { continuation: first.continuation });

  const second = await runTurnNonInteractive(request, options);

  assert.equal(second.result.status, 'completed');
  const turn = mock.turns()[1];
  assert.equal((turn.body as { previous_response_id?: unknown }).previous_response_id, first.continuation?.key);
  assert.deepEqual(conversationOf(turn).map((t) => [t.role, t.text]), [
    ['user', 'remember the word walnut'],
    ['assistant', 'mock reply to: remember the word walnut'],
    ['user', 'which word was it?'],
  ]);
  assert.notEqual(second.continuation?.key, first.continuation?.key);
  assert.match(second.continuation?.key ?? '', /^resp_/);
  for (const event of events) assert.deepEqual(event.continuation, second.continuation);
});

test('pi-sdk: a key the provider does not know fails the turn with its code and says the conversation cannot continue', async (t) => {
  const mock = await startMockProvider('openai');
  t.after(() => mock.close());
  const { request } = turnRequest('pi-sdk', turnDirs(t), 'hello', { continuation: { provider: 'openai', key: 'resp_gone' } });
  const response = await runTurnNonInteractive(request, { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY } });
  assert.equal(response.result.status, 'failed');
  assert.equal(response.result.error?.code, 'OPENAI_PREVIOUS_RESPONSE_NOT_FOUND');
  assert.match(response.result.error?.message ?? '', /no longer has response resp_gone.*start a new one/);
  assert.deepEqual(response.continuation, { provider: 'openai', key: 'resp_gone' }, 'nothing newer is known');
});

test('pi-sdk: aborting while the provider has not answered ends the turn as cancelled and keeps the previous key', async (t) => {
  const arrived = gate();
  const never = gate();
  const mock = await startMockProvider('openai');
  t.after(async () => {
    never.open();
    await mock.close();
  });
  const dirs = turnDirs(t);
  const options = { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY } };
  const first = await runTurnNonInteractive(turnRequest('pi-sdk', dirs, 'first').request, options);
  mock.setScript(async () => {
    arrived.open();
    await never.opened;
    return { text: 'too late' };
  });
  const controller = new AbortController();
  const turn = runTurnNonInteractive(turnRequest('pi-sdk', dirs, 'second', { continuation: first.continuation }).request, { ...options, signal: controller.signal });
  await arrived.opened;
  controller.abort();
  const response = await turn;
  assert.equal(response.result.status, 'cancelled');
  assert.equal(response.result.error?.code, 'HARNESS_TURN_CANCELLED');
  assert.deepEqual(response.continuation, first.continuation);
});

test('pi-sdk: aborting mid-stream ends the turn as cancelled with the partial answer; events carried the new key, the response keeps the last completed one', async (t) => {
  // The mock answers in one write, so this stand-in holds its stream open after the first delta, as a slow model does.
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`event: response.created\ndata: ${JSON.stringify({ type: 'response.created', response: { id: 'resp_partial', status: 'in_progress' } })}\n\n`);
    res.write(`event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', delta: 'Once upon' })}\n\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const controller = new AbortController();
  const events: BaseEvent[] = [];
  const { request } = turnRequest('pi-sdk', turnDirs(t), 'tell a long story', {
    callbacks: {
      onEvent: (event) => {
        events.push(event);
        if (payloadTypes([event])[0] === 'response.output_text.delta') controller.abort();
      },
    },
  });
  const response = await runTurnNonInteractive(request, { endpoint: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: PROXY_KEY }, signal: controller.signal });
  assert.equal(response.result.status, 'cancelled');
  assert.equal(response.result.finalText, 'Once upon');
  assert.equal(response.continuation, undefined, 'a first turn that never completed has no conversation to continue');
  assert.deepEqual(events.map((e) => e.continuation?.key), ['resp_partial', 'resp_partial']);
});

test('pi-sdk: the endpoint can come from request.env (what proxyEnvFor gives), and attachments are sent with the prompt', async (t) => {
  const mock = await startMockProvider('openai');
  t.after(() => mock.close());
  const dirs = turnDirs(t);
  writeFileSync(join(dirs.workspace, 'notes.txt'), 'the launch code is 1234\n');
  const { request } = turnRequest('pi-sdk', dirs, 'summarize the attachment', {
    env: { OPENAI_BASE_URL: mock.baseUrl, OPENAI_API_KEY: PROXY_KEY },
    attachments: ['notes.txt'],
  });
  const response = await runTurnNonInteractive(request);
  assert.equal(response.result.status, 'completed');
  assert.equal(mock.turns()[0].apiKey, PROXY_KEY);
  const user = conversationOf(mock.turns()[0]).find((t) => t.role === 'user');
  assert.deepEqual(user?.parts, ['summarize the attachment', `Attached file ${join(dirs.workspace, 'notes.txt')}:\nthe launch code is 1234\n`]);
  assert.equal(lastUserText(mock.turns()[0])?.startsWith('summarize the attachment'), true);
});

test('pi-sdk: an onEvent that throws ends the turn as failed with HARNESS_CALLBACK_FAILED instead of escaping mid-stream', async (t) => {
  const mock = await startMockProvider('openai');
  t.after(() => mock.close());
  const { request } = turnRequest('pi-sdk', turnDirs(t), 'hello', {
    callbacks: {
      onEvent: () => {
        throw new Error('card store is closed');
      },
    },
  });
  const response = await runTurnNonInteractive(request, { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY } });
  assert.equal(response.result.status, 'failed');
  assert.equal(response.result.error?.code, 'HARNESS_CALLBACK_FAILED');
  assert.match(response.result.error?.message ?? '', /onEvent threw on event 0: card store is closed/);
});
