// The Anthropic Messages API as a mock: POST /v1/messages (SSE when `stream: true`, else JSON),
// POST /v1/messages/count_tokens, GET /v1/models[/ID], HEAD|GET /api/hello (Claude Code's start-up check). Paths may carry a query (Claude Code adds ?beta=true).
import type { ServerResponse } from 'node:http';
import { type MockReply, type MockScript, usageOf } from './mockScript';
import type { RecordedRequest } from './requestRecorder';
import { sendJson, SseWriter } from './sseWriter';

export const MOCK_ANTHROPIC_MODELS = ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'];

type Json = Record<string, unknown>;

function contentBlocks(reply: MockReply, nextId: (prefix: string) => string): Json[] {
  const blocks: Json[] = [];
  if (reply.text !== undefined || !reply.toolCalls?.length) blocks.push({ type: 'text', text: reply.text ?? '' });
  for (const call of reply.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id ?? nextId('toolu_mock_'), name: call.name, input: call.input });
  return blocks;
}

function streamMessage(res: ServerResponse, message: Json, blocks: Json[], outputTokens: number, delayMs = 0): Promise<void> {
  const sse = new SseWriter(res, delayMs);
  sse.event('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...(message.usage as Json), output_tokens: 1 } } });
  sse.event('ping', { type: 'ping' });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      sse.event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      // Two deltas when there is something to split, so a client's concatenation is exercised.
      const text = String(block.text);
      const cut = Math.ceil(text.length / 2);
      for (const piece of [text.slice(0, cut), text.slice(cut)]) {
        if (piece) sse.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      }
    } else {
      sse.event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      sse.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    sse.event('content_block_stop', { type: 'content_block_stop', index });
  });
  sse.event('message_delta', { type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
  sse.event('message_stop', { type: 'message_stop' });
  return sse.end();
}

function sendError(res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { type: 'error', error: { type, message } }, headers);
}

function modelInfo(id: string): Json {
  return { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' };
}

/** Answers one request; false when no route matches (the server then answers 404 and marks it unhandled). */
export async function routeAnthropic(request: RecordedRequest, res: ServerResponse, script: MockScript, nextId: (prefix: string) => string): Promise<boolean> {
  const body = (request.body ?? {}) as Json;
  if ((request.method === 'HEAD' || request.method === 'GET') && request.path === '/api/hello') {
    // Claude Code's connectivity check at start-up (2.1.330 sends HEAD /api/hello before its first turn).
    res.writeHead(200).end();
    return true;
  }
  if (request.method === 'GET' && request.path === '/v1/models') {
    sendJson(res, 200, { data: MOCK_ANTHROPIC_MODELS.map(modelInfo), has_more: false, first_id: MOCK_ANTHROPIC_MODELS[0], last_id: MOCK_ANTHROPIC_MODELS.at(-1) });
    return true;
  }
  if (request.method === 'GET' && request.path.startsWith('/v1/models/')) {
    sendJson(res, 200, modelInfo(decodeURIComponent(request.path.slice('/v1/models/'.length))));
    return true;
  }
  if (request.method === 'POST' && request.path === '/v1/messages/count_tokens') {
    sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(request.rawBody.length / 4)) });
    return true;
  }
  if (request.method !== 'POST' || request.path !== '/v1/messages') return false;
  if (!Array.isArray(body.messages)) {
    sendError(res, 400, 'invalid_request_error', 'messages: Field required');
    return true;
  }
  const reply = await script(request);
  if (reply.error) {
    sendError(res, reply.error.status, reply.error.type ?? 'api_error', reply.error.message, { 'x-should-retry': String(reply.error.retry === true) });
    return true;
  }
  const usage = usageOf(reply, request);
  const blocks = contentBlocks(reply, nextId);
  const message: Json = {
    id: nextId('msg_mock_'),
    type: 'message',
    role: 'assistant',
    model: typeof body.model === 'string' ? body.model : MOCK_ANTHROPIC_MODELS[0],
    content: blocks,
    stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: usage.outputTokens },
  };
  if (body.stream === true) await streamMessage(res, message, blocks, usage.outputTokens, reply.eventDelayMs);
  else sendJson(res, 200, message);
  return true;
}

/** Anthropic's shape for "no such route". */
export function anthropicNotFound(res: ServerResponse, request: RecordedRequest): void {
  sendError(res, 404, 'not_found_error', `the mock Anthropic API has no route for ${request.method} ${request.path}`);
}
