// The mock providers as a client sees them: real fetches, streamed bodies parsed event by event.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { tempDir, waitFor } from '../helpers';
import { cannedScript, conversationOf, lastUserText, parseCannedReplies, startMockProvider } from '.';

type Json = Record<string, unknown>;

/** Reads a streamed SSE body event by event as it arrives: [{event?, data}] with data parsed as JSON (or kept as "[DONE]"). */
async function readSse(response: Response): Promise<{ event?: string; data: Json | string }[]> {
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const events: { event?: string; data: Json | string }[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
      events.push({ event, data: data === '[DONE]' ? data : (JSON.parse(data) as Json) });
    }
  }
  assert.equal(buffer, '', 'the stream ends on an event boundary');
  return events;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

test('Anthropic mock streams text and tool_use blocks a client can reassemble, with usage, and records the key it got', async (t) => {
  const mock = await startMockProvider('anthropic', {
    script: (request) => ({ text: `sure: ${lastUserText(request)}`, toolCalls: [{ name: 'Bash', input: { command: 'ls -la' } }], usage: { inputTokens: 42, outputTokens: 7 } }),
  });
  t.after(() => mock.close());
  const response = await post(`${mock.baseUrl}/v1/messages?beta=true`, { model: 'claude-x', stream: true, max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'list files' }] }] }, { 'x-api-key': 'sk-ant-real-key' });
  const events = await readSse(response);
  assert.deepEqual(
    events.map((e) => e.event),
    ['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
  );
  for (const e of events) assert.equal((e.data as Json).type, e.event, 'each data names its event');
  const deltas = events.map((e) => e.data as Json).filter((d) => d.type === 'content_block_delta').map((d) => d.delta as Json);
  assert.equal(deltas.filter((d) => d.type === 'text_delta').map((d) => d.text).join(''), 'sure: list files');
  assert.deepEqual(JSON.parse(deltas.filter((d) => d.type === 'input_json_delta').map((d) => d.partial_json).join('')), { command: 'ls -la' });
  const toolStart = events.map((e) => e.data as Json).filter((d) => d.type === 'content_block_start')[1].content_block as Json;
  assert.equal(toolStart.name, 'Bash');
  const start = (events[0].data as Json).message as Json;
  assert.equal(start.model, 'claude-x');
  assert.equal((start.usage as Json).input_tokens, 42);
  const end = events[9].data as Json;
  assert.deepEqual(end.delta, { stop_reason: 'tool_use', stop_sequence: null });
  assert.deepEqual(end.usage, { output_tokens: 7 });
  assert.equal(mock.requests.length, 1);
  assert.equal(mock.requests[0].apiKey, 'sk-ant-real-key');
  assert.equal(mock.requests[0].path, '/v1/messages');
});

test('Anthropic mock answers JSON without stream, counts tokens, lists models, and 404s (recorded as unhandled) what it does not serve', async (t) => {
  const mock = await startMockProvider('anthropic');
  t.after(() => mock.close());
  const json = (await (await post(`${mock.baseUrl}/v1/messages`, { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hello' }] }, { authorization: 'Bearer tok-1' })).json()) as Json;
  assert.deepEqual(json.content, [{ type: 'text', text: 'mock reply to: hello' }]);
  assert.equal(json.stop_reason, 'end_turn');
  assert.equal(mock.requests[0].apiKey, 'tok-1');
  const counted = (await (await post(`${mock.baseUrl}/v1/messages/count_tokens`, { messages: [] })).json()) as Json;
  assert.equal(typeof counted.input_tokens, 'number');
  assert.ok(((await (await fetch(`${mock.baseUrl}/v1/models`)).json()) as { data: unknown[] }).data.length > 0);
  const missing = await fetch(`${mock.baseUrl}/v1/unknown`);
  assert.equal(missing.status, 404);
  assert.equal(((await missing.json()) as { error: Json }).error.type, 'not_found_error');
  assert.deepEqual(mock.unhandled().map((r) => r.path), ['/v1/unknown']);
  assert.equal(mock.turns().length, 1);
  const bad = await post(`${mock.baseUrl}/v1/messages`, { model: 'm' });
  assert.equal(bad.status, 400);
  // A scripted error: the API's error shape, and no retry unless asked (clients would retry a 5xx for minutes).
  mock.setScript(() => ({ error: { status: 529, type: 'overloaded_error', message: 'busy' } }));
  const overloaded = await post(`${mock.baseUrl}/v1/messages`, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
  assert.equal(overloaded.status, 529);
  assert.equal(overloaded.headers.get('x-should-retry'), 'false');
  assert.deepEqual(await overloaded.json(), { type: 'error', error: { type: 'overloaded_error', message: 'busy' } });
  mock.setScript(() => ({ error: { status: 529, message: 'busy', retry: true } }));
  assert.equal((await post(`${mock.baseUrl}/v1/messages`, { model: 'm', messages: [] })).headers.get('x-should-retry'), 'true');
});

test('Responses mock streams a message and a function call, and previous_response_id brings the earlier turn into the next request', async (t) => {
  const mock = await startMockProvider('openai', {
    script: (request) => (lastUserText(request) === 'run it' ? { toolCalls: [{ name: 'shell', input: { cmd: ['ls'] }, id: 'call_1' }] } : { text: `ok: ${lastUserText(request)}` }),
  });
  t.after(() => mock.close());
  const first = await readSse(await post(`${mock.baseUrl}/responses`, { model: 'gpt-x', stream: true, input: 'remember 7' }, { authorization: 'Bearer sk-openai-real' }));
  assert.deepEqual(first.map((e) => e.event), [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.delta',
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.completed',
  ]);
  const data = first.map((e) => e.data as Json);
  assert.deepEqual(data.map((d) => d.sequence_number), data.map((_, i) => i));
  assert.equal(data.filter((d) => d.type === 'response.output_text.delta').map((d) => d.delta).join(''), 'ok: remember 7');
  const completed = data.at(-1)!.response as Json;
  assert.equal(completed.status, 'completed');
  assert.deepEqual(Object.keys(completed.usage as Json).sort(), ['input_tokens', 'input_tokens_details', 'output_tokens', 'output_tokens_details', 'total_tokens']);
  assert.equal(mock.requests[0].apiKey, 'sk-openai-real');

  const second = await readSse(await post(`${mock.baseUrl}/responses`, { model: 'gpt-x', stream: true, previous_response_id: completed.id, input: [{ role: 'user', content: [{ type: 'input_text', text: 'run it' }] }] }));
  const done = second.map((e) => e.data as Json).find((d) => d.type === 'response.output_item.done')!.item as Json;
  assert.deepEqual({ type: done.type, name: done.name, call_id: done.call_id, arguments: done.arguments }, { type: 'function_call', name: 'shell', call_id: 'call_1', arguments: '{"cmd":["ls"]}' });
  assert.deepEqual(conversationOf(mock.requests[1]).map((turn) => [turn.role, turn.text]), [
    ['user', 'remember 7'],
    ['assistant', 'ok: remember 7'],
    ['user', 'run it'],
  ]);

  const unknown = await post(`${mock.baseUrl}/responses`, { model: 'gpt-x', previous_response_id: 'resp_nope', input: 'x' });
  assert.equal(unknown.status, 400);
  assert.equal(((await unknown.json()) as { error: Json }).error.code, 'previous_response_not_found');
  const plain = (await (await post(`${mock.baseUrl}/responses`, { model: 'gpt-x', input: 'hi' })).json()) as Json;
  assert.equal(((plain.output as Json[])[0].content as Json[])[0].text, 'ok: hi', 'without stream the same reply comes as one JSON response');
});

test('Chat Completions mock streams data chunks, tool call deltas, a usage chunk when asked, then [DONE]', async (t) => {
  const mock = await startMockProvider('chat', { script: () => ({ text: 'hello world', toolCalls: [{ name: 'read', input: { path: 'a.txt' } }], usage: { inputTokens: 3, outputTokens: 4 } }) });
  t.after(() => mock.close());
  const events = await readSse(await post(`${mock.baseUrl}/chat/completions`, { model: 'local', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }, { authorization: 'Bearer chat-key' }));
  assert.ok(events.every((e) => e.event === undefined), 'chat chunks are unnamed data lines');
  assert.equal(events.at(-1)!.data, '[DONE]');
  const chunks = events.slice(0, -1).map((e) => e.data as Json);
  const deltas = chunks.flatMap((c) => (c.choices as Json[]).map((choice) => choice.delta as Json));
  assert.equal(deltas.map((d) => d.content ?? '').join(''), 'hello world');
  const args = deltas.flatMap((d) => (d.tool_calls as Json[] | undefined) ?? []).map((call) => (call.function as Json).arguments).join('');
  assert.deepEqual(JSON.parse(args), { path: 'a.txt' });
  const finish = chunks.flatMap((c) => (c.choices as Json[]).map((choice) => choice.finish_reason)).filter(Boolean);
  assert.deepEqual(finish, ['tool_calls']);
  assert.deepEqual(chunks.at(-1)!.usage, { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  assert.deepEqual(chunks.at(-1)!.choices, []);
  assert.equal(mock.requests[0].apiKey, 'chat-key');
  // Without include_usage no chunk carries usage.
  const noUsage = await readSse(await post(`${mock.baseUrl}/chat/completions`, { model: 'local', stream: true, messages: [{ role: 'user', content: 'hi' }] }));
  assert.ok(noUsage.slice(0, -1).every((e) => (e.data as Json).usage === undefined));
});

test('Gemini mock streams text and a function call as GenerateContentResponse events, answers JSON and counts tokens, with the key from x-goog-api-key', async (t) => {
  const mock = await startMockProvider('gemini', {
    script: (request) => ({ text: `sure: ${lastUserText(request)}`, toolCalls: [{ name: 'run_shell_command', input: { command: 'ls' } }], usage: { inputTokens: 9, outputTokens: 3 } }),
  });
  t.after(() => mock.close());
  const contents = [
    { role: 'user', parts: [{ text: '<session_context>\nThis is the Gemini CLI.' }] },
    { role: 'model', parts: [{ text: 'noted' }] },
    { role: 'user', parts: [{ text: 'list files' }] },
  ];
  const events = await readSse(await post(`${mock.baseUrl}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`, { contents, systemInstruction: { parts: [{ text: 'be brief' }] } }, { 'x-goog-api-key': 'gemini-real-key' }));
  assert.ok(events.every((e) => e.event === undefined), 'Gemini events are unnamed data lines');
  const candidates = events.map((e) => ((e.data as Json).candidates as Json[])[0]);
  const parts = candidates.flatMap((c) => (c.content as Json).parts as Json[]);
  assert.equal(parts.map((p) => p.text ?? '').join(''), 'sure: list files', 'the <session_context> block is not the user text');
  assert.deepEqual(parts.find((p) => p.functionCall)?.functionCall, { name: 'run_shell_command', args: { command: 'ls' } });
  assert.deepEqual(candidates.map((c) => c.finishReason ?? null), [null, null, 'STOP'], 'only the last event finishes');
  assert.deepEqual((events.at(-1)!.data as Json).usageMetadata, { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 });
  assert.equal(mock.requests[0].apiKey, 'gemini-real-key');
  assert.deepEqual(conversationOf(mock.requests[0]).map((turn) => turn.role), ['system', 'user', 'assistant', 'user']);

  mock.setScript(() => ({ text: 'plain' }));
  const json = (await (await post(`${mock.baseUrl}/v1beta/models/gemini-2.5-flash:generateContent`, { contents })).json()) as { candidates: { content: { parts: Json[] }; finishReason: string }[]; modelVersion: string };
  assert.deepEqual(json.candidates[0].content.parts, [{ text: 'plain' }]);
  assert.equal(json.modelVersion, 'gemini-2.5-flash');
  assert.equal(typeof ((await (await post(`${mock.baseUrl}/v1beta/models/gemini-2.5-pro:countTokens`, { contents })).json()) as Json).totalTokens, 'number');
  assert.equal(mock.turns().length, 2, 'countTokens is not a turn');
  mock.setScript(() => ({ error: { status: 429, message: 'quota' } }));
  const limited = await post(`${mock.baseUrl}/v1beta/models/gemini-2.5-pro:generateContent`, { contents });
  assert.equal(limited.status, 429);
  assert.deepEqual(await limited.json(), { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } });
  assert.equal((await post(`${mock.baseUrl}/v1beta/models/gemini-2.5-pro:embedContent`, {})).status, 404);
  assert.deepEqual(mock.unhandled().map((r) => r.path), ['/v1beta/models/gemini-2.5-pro:embedContent']);
});

test('eventDelayMs trickles a stream so a client can abort mid-answer, and the mock records that the client went away', async (t) => {
  const mock = await startMockProvider('openai', { script: () => ({ text: 'a long answer', eventDelayMs: 200 }) });
  t.after(() => mock.close());
  const response = await post(`${mock.baseUrl}/responses`, { model: 'm', stream: true, input: 'go' });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.match(first, /^event: response\.created\n/, 'the stream opens at once');
  assert.doesNotMatch(first, /response\.completed/, 'and the rest is still to come');
  await reader.cancel(); // the client gives up mid-answer
  await waitFor(() => mock.requests[0].clientClosedEarly, 'the mock to notice the client left');
  // A whole delayed stream still arrives complete.
  const whole = await readSse(await post(`${mock.baseUrl}/responses`, { model: 'm', stream: true, input: 'go' }));
  assert.equal(whole.at(-1)?.event, 'response.completed');
  assert.equal(mock.requests[1].clientClosedEarly, undefined);
});

test('canned replies: first matching substring wins, others echo; a malformed script is refused naming the entry', () => {
  const script = cannedScript(parseCannedReplies([{ match: 'weather', text: 'sunny' }, { match: '', text: 'fallback' }]));
  const request = (text: string) => ({ api: 'chat' as const, method: 'POST', url: '/', path: '/', headers: {}, apiKey: null, rawBody: '', body: { messages: [{ role: 'user', content: text }] }, priorItems: [], handled: true });
  assert.deepEqual(script(request('what is the weather')), { text: 'sunny' });
  assert.deepEqual(script(request('hi')), { text: 'fallback' });
  assert.deepEqual(cannedScript([])(request('hi')), { text: 'mock reply to: hi' });
  assert.throws(() => parseCannedReplies({}), /must be a JSON array/);
  assert.throws(() => parseCannedReplies([{ match: 'x', toolCalls: [{ name: 'a', input: 'no' }] }], 'f.json'), /f\.json\[0\]\.toolCalls\[0\] must be \{name: string, input: object\}/);
});

test('mockProviderMain serves all three APIs from one process, answers from a JSON script, shows what it received and takes new replies over HTTP, and exits on SIGTERM', async (t) => {
  const dir = tempDir('mock-main');
  t.after(dir.cleanup);
  const file = join(dir.path, 'script.json');
  writeFileSync(file, JSON.stringify([{ match: 'ping', text: 'pong' }]));
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'mockProviderMain.ts'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  t.after(() => child.kill('SIGKILL'));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('close', () => reject(new Error('mockProviderMain exited before printing its URLs')));
  });
  const urls = JSON.parse(line) as { anthropic: string; openai: string; chat: string };
  const anthropic = (await (await post(`${urls.anthropic}/v1/messages`, { model: 'm', messages: [{ role: 'user', content: 'ping?' }] }, { 'x-api-key': 'key-from-e2e' })).json()) as Json;
  assert.deepEqual(anthropic.content, [{ type: 'text', text: 'pong' }]);
  const openai = (await (await post(`${urls.openai}/responses`, { model: 'm', input: 'hello' })).json()) as { output: { content: { text: string }[] }[] };
  assert.equal(openai.output[0].content[0].text, 'mock reply to: hello');
  const chat = (await (await post(`${urls.chat}/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'ping' }] })).json()) as { choices: { message: { content: string } }[] };
  assert.equal(chat.choices[0].message.content, 'pong');

  // Another process reads what a mock received, and swaps its replies, through the control routes.
  const received = (await (await fetch(`${urls.anthropic}/_mock/requests`)).json()) as { apiKey: string; path: string }[];
  assert.deepEqual(received.map((r) => [r.path, r.apiKey]), [['/v1/messages', 'key-from-e2e']]);
  const openaiOrigin = urls.openai.replace(/\/v1$/, '');
  const put = await fetch(`${openaiOrigin}/_mock/replies`, { method: 'PUT', body: JSON.stringify([{ match: '', text: 'swapped' }]) });
  assert.equal(put.status, 204);
  const swapped = (await (await post(`${urls.openai}/responses`, { model: 'm', input: 'hello' })).json()) as { output: { content: { text: string }[] }[] };
  assert.equal(swapped.output[0].content[0].text, 'swapped');
  const refused = await fetch(`${openaiOrigin}/_mock/replies`, { method: 'PUT', body: JSON.stringify([{ text: 'no match' }]) });
  assert.equal(refused.status, 400);
  assert.match(((await refused.json()) as { error: Json }).error.message as string, /the body\[0\]\.match must be a string/);
  assert.equal((await fetch(`${openaiOrigin}/_mock/requests`, { method: 'DELETE' })).status, 204);
  assert.deepEqual(await (await fetch(`${openaiOrigin}/_mock/requests`)).json(), []);
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});
