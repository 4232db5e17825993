import { LlmError, streamError } from './llmErrors';
import { joinUrl, tokenCount, type ModelClient, type ModelRequest, type ModelResult, type ModelUsage } from './modelClient';
import { eventJson, postForEvents } from './providerStream';

/** The API version this client speaks (the header Anthropic requires on every call). */
const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Anthropic's Messages API, streamed (POST {base}/v1/messages with stream: true). Text comes in content_block_delta
 * events (text_delta); input tokens in message_start's usage (plus cache reads and writes, which are input too),
 * output tokens in message_delta's usage (a running total: the last one counts).
 */
export class AnthropicMessagesClient implements ModelClient {
  readonly api = 'anthropic-messages' as const;

  async stream(request: ModelRequest, onText: (delta: string) => void | Promise<void>): Promise<ModelResult> {
    let text = '';
    let usage: ModelUsage | null = null;
    let stopReason: string | null = null;
    let stopped = false;
    await postForEvents({
      provider: request.provider,
      url: joinUrl(request.endpoint.baseUrl, 'v1/messages'),
      headers: { 'x-api-key': request.endpoint.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
      body: {
        model: request.model,
        max_tokens: request.maxTokens,
        ...(request.systemPrompt.trim() ? { system: request.systemPrompt } : {}),
        messages: [{ role: 'user', content: request.userMessage }],
        stream: true,
      },
      signal: request.signal,
      onEvent: async (event) => {
        if (event.event === 'ping') return;
        const data = eventJson(request.provider, event);
        const type = typeof data.type === 'string' ? data.type : event.event;
        if (event.event === 'error' || type === 'error') throw streamError(request.provider, data);
        if (type === 'message_start') {
          const start = (data.message as { usage?: Record<string, unknown> } | undefined)?.usage ?? {};
          const input = tokenCount(start.input_tokens) + tokenCount(start.cache_creation_input_tokens) + tokenCount(start.cache_read_input_tokens);
          usage = { inputTokens: input, outputTokens: tokenCount(start.output_tokens) };
        } else if (type === 'content_block_delta') {
          const delta = data.delta as { type?: string; text?: unknown } | undefined;
          if (delta?.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') {
            text += delta.text;
            await onText(delta.text);
          }
        } else if (type === 'message_delta') {
          const delta = data.delta as { stop_reason?: unknown } | undefined;
          if (typeof delta?.stop_reason === 'string') stopReason = delta.stop_reason;
          const counted = (data.usage as Record<string, unknown> | undefined)?.output_tokens;
          if (counted !== undefined) usage = { inputTokens: usage?.inputTokens ?? 0, outputTokens: tokenCount(counted) };
        } else if (type === 'message_stop') {
          stopped = true;
        }
      },
    });
    if (!stopped) throw new LlmError('provider_stream_error', `the ${request.provider} stream ended before message_stop: the answer is incomplete`, 'run the agent again');
    return { text, usage, stopReason };
  }
}
