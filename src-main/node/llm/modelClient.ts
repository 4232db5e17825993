import type { ToolCall, ToolSpec, TranscriptItem } from './transcript';

/** The three provider APIs a model-backed agent can speak. */
export type ModelApi = 'anthropic-messages' | 'openai-responses' | 'openai-chat';

export const MODEL_APIS: readonly ModelApi[] = ['anthropic-messages', 'openai-responses', 'openai-chat'];

/**
 * Where the call goes: the credential proxy's base URL for the connection and the dummy key bound to the agent's
 * handle (credentialAccess.ts). The real key is never here: the proxy puts it on the request.
 */
export interface ModelEndpoint {
  baseUrl: string;
  apiKey: string;
}

/** One model call: a system prompt and the conversation so far (a user message, then tool rounds), streamed back. */
export interface ModelRequest {
  endpoint: ModelEndpoint;
  /** Shown in errors: "anthropic", "openai", "openai-compatible". */
  provider: string;
  model: string;
  systemPrompt: string;
  transcript: readonly TranscriptItem[];
  /** Offered to the model; empty for an agent without tools. */
  tools: readonly ToolSpec[];
  maxTokens: number;
  signal: AbortSignal;
}

/** Tokens as the provider counted them (its usage fields), not an estimate. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelResult {
  text: string;
  /** null when the provider reported none (some OpenAI-compatible servers). */
  usage: ModelUsage | null;
  /** The provider's reason the answer ended (end_turn, max_tokens, stop, length, …), when it said. */
  stopReason: string | null;
  /** Tools the model asked to run, in order (none when it answered in text only). */
  toolCalls: ToolCall[];
}

/**
 * A client of one provider API. `onText` gets each piece of text as it streams in; the call waits for its promise
 * (a suspended run holds the stream there).
 */
export interface ModelClient {
  readonly api: ModelApi;
  stream(request: ModelRequest, onText: (delta: string) => void | Promise<void>): Promise<ModelResult>;
}

/** A usage field's value, or 0 for a missing or odd one. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}

/** `${base}/${path}` with exactly one slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
