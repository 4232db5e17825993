// OpenAI-compatible Chat Completions as a mock: POST /v1/chat/completions (SSE `data:` chunks ending in
// `data: [DONE]` when `stream: true`, a usage-only last chunk when `stream_options.include_usage`; else JSON),
// GET /v1/models.
import type { ServerResponse } from 'node:http';
import { type MockScript, usageOf } from './mockScript';
import { MOCK_OPENAI_MODELS, openaiNotFound } from './openaiResponses';
import type { RecordedRequest } from './requestRecorder';
import { sendJson, SseWriter } from './sseWriter';

type Json = Record<string, unknown>;

/** Answers one request; false when no route matches (the server then answers 404 and marks it unhandled). */
export async function routeChat(request: RecordedRequest, res: ServerResponse, script: MockScript, nextId: (prefix: string) => string): Promise<boolean> {
  const body = (request.body ?? {}) as Json;
  if (request.method === 'GET' && request.path === '/v1/models') {
    sendJson(res, 200, { object: 'list', data: MOCK_OPENAI_MODELS.map((id) => ({ id, object: 'model', created: 1735689600, owned_by: 'mock' })) });
    return true;
  }
  if (request.method !== 'POST' || request.path !== '/v1/chat/completions') return false;
  if (!Array.isArray(body.messages)) {
    sendJson(res, 400, { error: { message: "Missing required parameter: 'messages'.", type: 'invalid_request_error', param: 'messages', code: 'missing_required_parameter' } });
    return true;
  }
  const reply = await script(request);
  if (reply.error) {
    const retry = { 'x-should-retry': String(reply.error.retry === true) };
    sendJson(res, reply.error.status, { error: { message: reply.error.message, type: reply.error.type ?? 'server_error', param: null, code: null } }, retry);
    return true;
  }
  const usage = usageOf(reply, request);
  const usageJson = { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens };
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({ id: call.id ?? nextId('call_mock_'), type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }));
  const text = reply.text ?? (toolCalls.length ? null : '');
  const finish_reason = toolCalls.length ? 'tool_calls' : 'stop';
  const base = { id: nextId('chatcmpl-mock-'), created: Math.floor(Date.now() / 1000), model: typeof body.model === 'string' ? body.model : MOCK_OPENAI_MODELS[0] };
  if (body.stream !== true) {
    const message: Json = { role: 'assistant', content: text, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
    sendJson(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason, logprobs: null }], usage: usageJson });
    return true;
  }
  const sse = new SseWriter(res, reply.eventDelayMs);
  const chunk = (delta: Json, finish: string | null) => sse.data({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
  chunk({ role: 'assistant', content: '' }, null);
  if (text) {
    const cut = Math.ceil(text.length / 2);
    for (const piece of [text.slice(0, cut), text.slice(cut)]) if (piece) chunk({ content: piece }, null);
  }
  toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, null);
    chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }, null);
  });
  chunk({}, finish_reason);
  const options = body.stream_options as Json | undefined;
  if (options?.include_usage === true) sse.data({ ...base, object: 'chat.completion.chunk', choices: [], usage: usageJson });
  sse.data('[DONE]');
  await sse.end();
  return true;
}

export { openaiNotFound as chatNotFound };
