import { LlmError, streamError } from './llmErrors';
import { joinUrl, tokenCount, type ModelClient, type ModelRequest, type ModelResult, type ModelUsage } from './modelClient';
import { eventJson, postForEvents } from './providerStream';
import { parseToolInput, type ToolCall, type TranscriptItem } from './transcript';

/** The conversation as chat messages: the system prompt first, tool results as `tool` messages. */
function messagesOf(systemPrompt: string, transcript: readonly TranscriptItem[]): unknown[] {
  const messages: unknown[] = systemPrompt.trim() ? [{ role: 'system', content: systemPrompt }] : [];
  for (const item of transcript) {
    if (item.kind === 'user') {
      messages.push({ role: 'user', content: item.text });
    } else if (item.kind === 'assistant') {
      const calls = item.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }));
      messages.push({ role: 'assistant', content: item.text || null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    } else {
      messages.push({ role: 'tool', tool_call_id: item.callId, content: item.output });
    }
  }
  return messages;
}

interface ChatDelta {
  content?: unknown;
  tool_calls?: { index?: number; id?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
}

/**
 * The OpenAI chat completions API as OpenAI-compatible servers speak it (Ollama, vLLM, gateways): POST
 * {base}/chat/completions with stream: true and stream_options.include_usage, so the last chunk carries the usage
 * (prompt_tokens, completion_tokens). Text comes in choices[0].delta.content, tool calls in delta.tool_calls pieces
 * (by index); the stream ends with `data: [DONE]`.
 */
export class OpenAiChatClient implements ModelClient {
  readonly api = 'openai-chat' as const;

  async stream(request: ModelRequest, onText: (delta: string) => void | Promise<void>): Promise<ModelResult> {
    let text = '';
    let usage: ModelUsage | null = null;
    let stopReason: string | null = null;
    let done = false;
    const calls = new Map<number, { id: string; name: string; json: string }>();
    const tools = request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
    await postForEvents({
      provider: request.provider,
      url: joinUrl(request.endpoint.baseUrl, 'chat/completions'),
      headers: { authorization: `Bearer ${request.endpoint.apiKey}` },
      body: {
        model: request.model,
        messages: messagesOf(request.systemPrompt, request.transcript),
        ...(tools.length > 0 ? { tools } : {}),
        max_tokens: request.maxTokens,
        stream: true,
        stream_options: { include_usage: true },
      },
      signal: request.signal,
      onEvent: async (event) => {
        if (event.data.trim() === '[DONE]') {
          done = true;
          return;
        }
        const data = eventJson(request.provider, event);
        if (event.event === 'error' || data.error !== undefined) throw streamError(request.provider, data);
        const choice = Array.isArray(data.choices) ? (data.choices[0] as { delta?: ChatDelta; finish_reason?: unknown } | undefined) : undefined;
        const content = choice?.delta?.content;
        if (typeof content === 'string' && content !== '') {
          text += content;
          await onText(content);
        }
        for (const piece of choice?.delta?.tool_calls ?? []) {
          const index = typeof piece.index === 'number' ? piece.index : 0;
          const call = calls.get(index) ?? { id: '', name: '', json: '' };
          if (typeof piece.id === 'string') call.id = piece.id;
          if (typeof piece.function?.name === 'string') call.name += piece.function.name;
          if (typeof piece.function?.arguments === 'string') call.json += piece.function.arguments;
          calls.set(index, call);
        }
        if (typeof choice?.finish_reason === 'string') stopReason = choice.finish_reason;
        const counted = data.usage as Record<string, unknown> | null | undefined;
        if (counted) usage = { inputTokens: tokenCount(counted.prompt_tokens), outputTokens: tokenCount(counted.completion_tokens) };
      },
    });
    if (!done && stopReason === null) throw new LlmError('provider_stream_error', `the ${request.provider} stream ended before [DONE]: the answer is incomplete`, 'run the agent again');
    const toolCalls: ToolCall[] = [...calls.entries()].sort(([a], [b]) => a - b).map(([index, call]) => ({ id: call.id || `call_${index}`, name: call.name, input: parseToolInput(call.json) }));
    return { text, usage, stopReason, toolCalls };
  }
}
