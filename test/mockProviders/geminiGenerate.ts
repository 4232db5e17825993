// The Gemini API (generativelanguage.googleapis.com, as the @google/genai SDK calls it) as a mock:
// POST /v1beta/models/MODEL:streamGenerateContent?alt=sse (bare `data: JSON` events, each a GenerateContentResponse),
// POST /v1beta/models/MODEL:generateContent (JSON), POST /v1beta/models/MODEL:countTokens, GET /v1beta/models.
// `/v1/` is served the same (GOOGLE_GENAI_API_VERSION). The key arrives in `x-goog-api-key`.
import type { ServerResponse } from 'node:http';
import { type MockReply, type MockScript, usageOf } from './mockScript';
import type { RecordedRequest } from './requestRecorder';
import { sendJson, SseWriter } from './sseWriter';

export const MOCK_GEMINI_MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'];

type Json = Record<string, unknown>;

const MODEL_CALL = /^\/(v1beta|v1)\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;

/** Whether a request is a generation call (the conversation endpoints); the server's turns() counts these. */
export function isGeminiTurn(request: RecordedRequest): boolean {
  const call = MODEL_CALL.exec(request.path)?.[3];
  return request.method === 'POST' && (call === 'streamGenerateContent' || call === 'generateContent');
}

function replyParts(reply: MockReply): Json[] {
  const parts: Json[] = [];
  if (reply.text !== undefined || !reply.toolCalls?.length) parts.push({ text: reply.text ?? '' });
  // Gemini's function calls carry no id of their own unless the client asks; the mock passes the script's through.
  for (const call of reply.toolCalls ?? []) parts.push({ functionCall: { name: call.name, args: call.input, ...(call.id ? { id: call.id } : {}) } });
  return parts;
}

function usageMetadata(reply: MockReply, request: RecordedRequest): Json {
  const usage = usageOf(reply, request);
  return { promptTokenCount: usage.inputTokens, candidatesTokenCount: usage.outputTokens, totalTokenCount: usage.inputTokens + usage.outputTokens };
}

/** Google's error shape: `{error: {code, message, status}}`. */
function sendError(res: ServerResponse, code: number, message: string, status: string): void {
  sendJson(res, code, { error: { code, message, status } });
}

const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

/** Answers one request; false when no route matches (the server then answers 404 and marks it unhandled). */
export async function routeGemini(request: RecordedRequest, res: ServerResponse, script: MockScript, nextId: (prefix: string) => string): Promise<boolean> {
  const body = (request.body ?? {}) as Json;
  if (request.method === 'GET' && /^\/(v1beta|v1)\/models$/.test(request.path)) {
    sendJson(res, 200, { models: MOCK_GEMINI_MODELS.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent', 'countTokens'] })) });
    return true;
  }
  const match = MODEL_CALL.exec(request.path);
  if (request.method !== 'POST' || !match) return false;
  const [, , model, call] = match;
  if (call === 'countTokens') {
    sendJson(res, 200, { totalTokens: Math.max(1, Math.ceil(request.rawBody.length / 4)) });
    return true;
  }
  if (!Array.isArray(body.contents)) {
    sendError(res, 400, '* GenerateContentRequest.contents: contents is not specified', 'INVALID_ARGUMENT');
    return true;
  }
  const reply = await script(request);
  if (reply.error) {
    sendError(res, reply.error.status, reply.error.message, reply.error.type ?? STATUS_NAMES[reply.error.status] ?? 'UNKNOWN');
    return true;
  }
  const base = { modelVersion: model, responseId: nextId('gemini-mock-') };
  const parts = replyParts(reply);
  if (call === 'generateContent') {
    sendJson(res, 200, { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: usageMetadata(reply, request), ...base });
    return true;
  }
  // Streamed: the text in two events (so a client's joining is exercised), each function call in one, then the
  // finish reason with the usage, as the API ends a stream.
  const sse = new SseWriter(res, reply.eventDelayMs);
  const chunk = (chunkParts: Json[], last: boolean) =>
    sse.data({ candidates: [{ content: { role: 'model', parts: chunkParts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }], ...(last ? { usageMetadata: usageMetadata(reply, request) } : {}), ...base });
  const pieces: Json[][] = [];
  for (const part of parts) {
    if (typeof part.text === 'string' && part.text) {
      const cut = Math.ceil(part.text.length / 2);
      for (const piece of [part.text.slice(0, cut), part.text.slice(cut)]) if (piece) pieces.push([{ text: piece }]);
    } else if (part.functionCall) {
      pieces.push([part]);
    }
  }
  pieces.forEach((piece, index) => chunk(piece, index === pieces.length - 1));
  if (pieces.length === 0) chunk([{ text: '' }], true);
  await sse.end();
  return true;
}

/** Google's shape for "no such route". */
export function geminiNotFound(res: ServerResponse, request: RecordedRequest): void {
  sendError(res, 404, `The mock Gemini API has no route for ${request.method} ${request.path}.`, 'NOT_FOUND');
}
