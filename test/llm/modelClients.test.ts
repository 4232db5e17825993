// The three API clients on their own, against the mock providers and small local servers that misbehave: text and
// usage as each API streams them, and every way a call can fail as the typed error the run reports.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { LlmError } from '../../src-main/node/llm/llmErrors';
import type { ModelApi, ModelRequest } from '../../src-main/node/llm/modelClient';
import { clientFor } from '../../src-main/node/llm/startLlmAgent';
import { startMockProvider, type MockProvider } from '../mockProviders';

const request = (baseUrl: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  endpoint: { baseUrl, apiKey: 'omni-proxy-test' },
  provider: 'test-provider',
  model: 'm',
  systemPrompt: 'sys',
  transcript: [{ kind: 'user', text: 'hello there' }],
  tools: [],
  maxTokens: 100,
  signal: new AbortController().signal,
  ...extra,
});

/** A server answering every request with `answer`. */
async function server(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const s = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  };
}

const typed = (code: string, message: RegExp) => (error: unknown) => error instanceof LlmError && error.code === code && message.test(error.message) && error.hint.length > 0;

describe('model API clients', () => {
  const mocks = {} as Record<ModelApi, MockProvider>;
  before(async () => {
    const script = () => ({ text: 'Hello back, streamed in pieces.', usage: { inputTokens: 12, outputTokens: 6 } });
    mocks['anthropic-messages'] = await startMockProvider('anthropic', { script });
    mocks['openai-responses'] = await startMockProvider('openai', { script });
    mocks['openai-chat'] = await startMockProvider('chat', { script });
  });
  after(async () => {
    for (const mock of Object.values(mocks)) await mock.close();
  });

  for (const api of ['anthropic-messages', 'openai-responses', 'openai-chat'] as ModelApi[]) {
    it(`${api}: text arrives piece by piece, usage from the API's own fields, the key sent as the API expects`, async () => {
      const pieces: string[] = [];
      const result = await clientFor(api).stream(request(mocks[api].baseUrl), (delta) => void pieces.push(delta));
      assert.equal(result.text, 'Hello back, streamed in pieces.');
      assert.ok(pieces.length >= 2, JSON.stringify(pieces));
      assert.equal(pieces.join(''), result.text);
      assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 6 });
      assert.deepEqual(result.toolCalls, []);
      assert.equal(mocks[api].turns().at(-1)!.apiKey, 'omni-proxy-test');
    });
  }

  it('an answer that is not a stream, a stream that ends early, and a dead address are typed errors', async () => {
    const html = await server((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a login page</html>'));
    const early = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n');
    });
    const junk = await server((_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {not json\n\n'));
    try {
      await assert.rejects(clientFor('openai-chat').stream(request(html.url), () => {}), typed('provider_stream_error', /answered with text\/html, not a stream of events: <html>a login page/));
      await assert.rejects(clientFor('anthropic-messages').stream(request(early.url), () => {}), typed('provider_stream_error', /ended before message_stop/));
      await assert.rejects(clientFor('openai-responses').stream(request(junk.url), () => {}), typed('provider_stream_error', /data is not a JSON object/));
    } finally {
      await Promise.all([html.close(), early.close(), junk.close()]);
    }
    const gone = await server(() => {});
    await gone.close();
    await assert.rejects(clientFor('anthropic-messages').stream(request(gone.url), () => {}), typed('provider_unreachable', /could not be reached at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/));
  });

  it('HTTP errors: 429 with Retry-After, the proxy\'s credential_revoked, 503, each with the provider\'s message', async () => {
    const answers: [number, Record<string, string>, unknown][] = [
      [429, { 'retry-after': '17' }, { error: { type: 'rate_limit_error', message: 'slow down' } }],
      [403, {}, { error: { type: 'credential_revoked', message: 'the grant was revoked' } }],
      [503, {}, { type: 'error', error: { type: 'overloaded_error', message: 'overloaded' } }],
    ];
    let next = 0;
    const api = await server((_req, res) => {
      const [status, headers, body] = answers[next++];
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    });
    try {
      const limited = await clientFor('anthropic-messages').stream(request(api.url), () => {}).catch((error: unknown) => error);
      assert.ok(typed('provider_rate_limited', /rate limiting this key \(HTTP 429\): slow down/)(limited));
      assert.equal((limited as LlmError).retryAfterS, 17);
      assert.match((limited as LlmError).hint, /wait 17 s/);
      await assert.rejects(clientFor('openai-chat').stream(request(api.url), () => {}), typed('credential_revoked', /the grant was revoked/));
      await assert.rejects(clientFor('openai-responses').stream(request(api.url), () => {}), typed('provider_unavailable', /failed to answer \(HTTP 503\): overloaded/));
    } finally {
      await api.close();
    }
  });

  it('an abort ends the call with the abort\'s reason, and the server sees the connection go', async () => {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    let answered!: () => void;
    const streaming = new Promise<void>((resolve) => (answered = resolve));
    const hang = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': still thinking\n\n', () => answered());
      res.on('close', () => closed());
    });
    try {
      const controller = new AbortController();
      const call = clientFor('openai-chat').stream(request(hang.url, { signal: controller.signal }), () => {});
      await streaming;
      controller.abort(new Error('stopped by the user'));
      await assert.rejects(call, /stopped by the user/);
      await gone;
    } finally {
      await hang.close();
    }
  });
});
