import { LlmError, streamError } from './llmErrors';
import { joinUrl, tokenCount, type ModelClient, type ModelRequest, type ModelResult, type ModelUsage } from './modelClient';
import { eventJson, postForEvents } from './providerStream';

/**
 * The OpenAI chat completions API as OpenAI-compatible servers speak it (Ollama, vLLM, gateways): POST
 * {base}/chat/completions with stream: true and stream_options.include_usage, so the last chunk carries the usage
 * (prompt_tokens, completion_tokens). Text comes in choices[0].delta.content; the stream ends with `data: [DONE]`.
 */
export class OpenAiChatClient implements ModelClient {
  readonly api = 'openai-chat' as const;

  async stream(request: ModelRequest, onText: (delta: string) => void | Promise<void>): Promise<ModelResult> {
    let text = '';
    let usage: ModelUsage | null = null;
    let stopReason: string | null = null;
    let done = false;
    const messages = [...(request.systemPrompt.trim() ? [{ role: 'system', content: request.systemPrompt }] : []), { role: 'user', content: request.userMessage }];
    await postForEvents({
      provider: request.provider,
      url: joinUrl(request.endpoint.baseUrl, 'chat/completions'),
      headers: { authorization: `Bearer ${request.endpoint.apiKey}` },
      body: { model: request.model, messages, max_tokens: request.maxTokens, stream: true, stream_options: { include_usage: true } },
      signal: request.signal,
      onEvent: async (event) => {
        if (event.data.trim() === '[DONE]') {
          done = true;
          return;
        }
        const data = eventJson(request.provider, event);
        if (event.event === 'error' || data.error !== undefined) throw streamError(request.provider, data);
        const choice = Array.isArray(data.choices) ? (data.choices[0] as { delta?: { content?: unknown }; finish_reason?: unknown } | undefined) : undefined;
        const content = choice?.delta?.content;
        if (typeof content === 'string' && content !== '') {
          text += content;
          await onText(content);
        }
        if (typeof choice?.finish_reason === 'string') stopReason = choice.finish_reason;
        const counted = data.usage as Record<string, unknown> | null | undefined;
        if (counted) usage = { inputTokens: tokenCount(counted.prompt_tokens), outputTokens: tokenCount(counted.completion_tokens) };
      },
    });
    if (!done && stopReason === null) throw new LlmError('provider_stream_error', `the ${request.provider} stream ended before [DONE]: the answer is incomplete`, 'run the agent again');
    return { text, usage, stopReason };
  }
}
