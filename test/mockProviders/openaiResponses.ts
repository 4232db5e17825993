// The OpenAI Responses API as a mock: POST /v1/responses (SSE when `stream: true`, else JSON), with
// `previous_response_id` (the chain's items become the request's priorItems; an unknown id is a 400 as upstream),
// GET /v1/responses/ID, GET /v1/models.
import type { ServerResponse } from 'node:http';
import { type MockReply, type MockScript, usageOf } from './mockScript';
import type { RecordedRequest } from './requestRecorder';
import { sendJson, SseWriter } from './sseWriter';

export const MOCK_OPENAI_MODELS = ['gpt-5', 'gpt-5-codex', 'gpt-4.1-mini'];

type Json = Record<string, unknown>;

/** Responses the mock has answered, by id: what a later previous_response_id continues from. */
export class ResponseStore {
  private readonly items = new Map<string, unknown[]>();
  private readonly responses = new Map<string, Json>();

  /** The items of the chain ending at `id` (each response's input, then its output), or undefined if unknown. */
  chain(id: string): unknown[] | undefined {
    return this.items.get(id);
  }

  save(response: Json, items: unknown[]): void {
    this.items.set(String(response.id), items);
    this.responses.set(String(response.id), response);
  }

  get(id: string): Json | undefined {
    return this.responses.get(id);
  }
}

function outputItems(reply: MockReply, nextId: (prefix: string) => string): Json[] {
  const items: Json[] = [];
  if (reply.text !== undefined || !reply.toolCalls?.length) {
    items.push({ id: nextId('msg_mock_'), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: reply.text ?? '', annotations: [] }] });
  }
  for (const call of reply.toolCalls ?? []) {
    items.push({ id: nextId('fc_mock_'), type: 'function_call', status: 'completed', call_id: call.id ?? nextId('call_mock_'), name: call.name, arguments: JSON.stringify(call.input) });
  }
  return items;
}

function streamResponse(res: ServerResponse, response: Json, items: Json[], delayMs = 0): Promise<void> {
  const sse = new SseWriter(res, delayMs);
  let sequence = 0;
  const send = (type: string, data: Json) => sse.event(type, { type, sequence_number: sequence++, ...data });
  const pending = { ...response, status: 'in_progress', output: [], usage: null };
  send('response.created', { response: pending });
  send('response.in_progress', { response: pending });
  items.forEach((item, output_index) => {
    if (item.type === 'message') {
      const text = String((item.content as Json[])[0].text);
      const part = { type: 'output_text', text: '', annotations: [] };
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      send('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part });
      const cut = Math.ceil(text.length / 2);
      for (const delta of [text.slice(0, cut), text.slice(cut)]) {
        if (delta) send('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta, logprobs: [] });
      }
      send('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
      send('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: { ...part, text } });
    } else {
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      send('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments });
      send('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
    }
    send('response.output_item.done', { output_index, item });
  });
  send('response.completed', { response });
  return sse.end();
}

function sendError(res: ServerResponse, status: number, message: string, type = 'invalid_request_error', code: string | null = null, param: string | null = null, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { message, type, param, code } }, headers);
}

/** Answers one request; false when no route matches (the server then answers 404 and marks it unhandled). */
export async function routeResponses(request: RecordedRequest, res: ServerResponse, script: MockScript, nextId: (prefix: string) => string, store: ResponseStore): Promise<boolean> {
  const body = (request.body ?? {}) as Json;
  if (request.method === 'GET' && request.path === '/v1/models') {
    sendJson(res, 200, { object: 'list', data: MOCK_OPENAI_MODELS.map((id) => ({ id, object: 'model', created: 1735689600, owned_by: 'mock' })) });
    return true;
  }
  if (request.method === 'GET' && request.path.startsWith('/v1/responses/')) {
    const found = store.get(decodeURIComponent(request.path.slice('/v1/responses/'.length)));
    if (found) sendJson(res, 200, found);
    else sendError(res, 404, 'No response found with that id.', 'invalid_request_error', 'not_found');
    return true;
  }
  if (request.method !== 'POST' || request.path !== '/v1/responses') return false;
  if (typeof body.input !== 'string' && !Array.isArray(body.input)) {
    sendError(res, 400, "Missing required parameter: 'input'.", 'invalid_request_error', 'missing_required_parameter', 'input');
    return true;
  }
  if (typeof body.previous_response_id === 'string') {
    const prior = store.chain(body.previous_response_id);
    if (!prior) {
      sendError(res, 400, `Previous response with id '${body.previous_response_id}' not found.`, 'invalid_request_error', 'previous_response_not_found', 'previous_response_id');
      return true;
    }
    request.priorItems = prior;
  }
  const reply = await script(request);
  if (reply.error) {
    sendError(res, reply.error.status, reply.error.message, reply.error.type ?? 'server_error', null, null, { 'x-should-retry': String(reply.error.retry === true) });
    return true;
  }
  const usage = usageOf(reply, request);
  const items = outputItems(reply, nextId);
  const response: Json = {
    id: nextId('resp_mock_'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model: typeof body.model === 'string' ? body.model : MOCK_OPENAI_MODELS[0],
    previous_response_id: body.previous_response_id ?? null,
    output: items,
    usage: {
      input_tokens: usage.inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  };
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: body.input }] }] : (body.input as unknown[]);
  store.save(response, [...request.priorItems, ...input, ...items]);
  if (body.stream === true) await streamResponse(res, response, items, reply.eventDelayMs);
  else sendJson(res, 200, response);
  return true;
}

/** OpenAI's shape for "no such route". */
export function openaiNotFound(res: ServerResponse, request: RecordedRequest): void {
  sendError(res, 404, `The mock OpenAI API has no route for ${request.method} ${request.path}.`, 'invalid_request_error', 'unknown_url');
}
