// What a mock provider answers: a script turns each recorded request into a reply (text and/or tool calls, token
// usage, or an API error). The same reply shape is rendered by every API dialect (Anthropic, OpenAI Responses, Chat
// Completions, Gemini).
import type { RecordedRequest } from './requestRecorder';
import { lastUserText } from './conversation';

export interface MockToolCall {
  name: string;
  /** The tool's JSON input (Anthropic `input`, OpenAI `arguments` serialized, Gemini `args`). */
  input: Record<string, unknown>;
  /** Call id; generated (toolu_… / call_…) when absent. */
  id?: string;
}

export interface MockUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface MockReply {
  text?: string;
  toolCalls?: MockToolCall[];
  /** Default: input ≈ request body bytes / 4, output = words + 2 per tool call (deterministic). */
  usage?: MockUsage;
  /** Streams only: pause this long between events after the first, so a test can act mid-stream (abort, say). */
  eventDelayMs?: number;
  /**
   * Answer with this HTTP error (in the API's error JSON shape) instead of a reply. Clients retry 429 and 5xx for a
   * long time (Claude Code 2.1.330 up to 10 times with backoff, Codex 0.169.0 about 25 s), so the mock sends
   * `x-should-retry: false` unless `retry` is true (the Anthropic/OpenAI SDKs obey it; Codex does not): for a quick
   * failure with Codex use a 4xx other than 429.
   */
  error?: { status: number; message: string; type?: string; retry?: boolean };
}

export type MockScript = (request: RecordedRequest) => MockReply | Promise<MockReply>;

/** The default: echoes the last user text, so a test can tell which prompt an answer belongs to. */
export const echoScript: MockScript = (request) => ({ text: `mock reply to: ${lastUserText(request) ?? '(no user text)'}` });

/** Token usage for a reply: the script's own, or a deterministic estimate. */
export function usageOf(reply: MockReply, request: RecordedRequest): MockUsage {
  if (reply.usage) return reply.usage;
  const words = (reply.text ?? '').split(/\s+/).filter(Boolean).length;
  return { inputTokens: Math.max(1, Math.ceil(request.rawBody.length / 4)), outputTokens: words + 2 * (reply.toolCalls?.length ?? 0) };
}
