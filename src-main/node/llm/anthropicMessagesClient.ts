import { LlmError, streamError } from './llmErrors';
import { joinUrl, tokenCount, type ModelClient, type ModelRequest, type ModelResult, type ModelUsage } from './modelClient';
import { eventJson, postForEvents } from './providerStream';
import { parseToolInput, type ToolCall, type TranscriptItem } from './transcript';

/** The API version this client speaks (the header Anthropic requires on every call). */
const ANTHROPIC_VERSION = '2023-06-01';

/** The conversation as Messages API messages: tool results go back as the next user message's tool_result blocks. */
function messagesOf(transcript: readonly TranscriptItem[]): Record<string, unknown>[] {
  const messages: { role: string; content: unknown[] | string }[] = [];
  for (const item of transcript) {
    if (item.kind === 'user') {
      messages.push({ role: 'user', content: item.text });
    } else if (item.kind === 'assistant') {
      const blocks: unknown[] = item.text ? [{ type: 'text', text: item.text }] : [];
      for (const call of item.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
      messages.push({ role: 'assistant', content: blocks });
    } else {
      const block = { type: 'tool_result', tool_use_id: item.callId, content: item.output, ...(item.isError ? { is_error: true } : {}) };
      const last = messages.at(-1);
      if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(block);
      else messages.push({ role: 'user', content: [block] });
    }
  }
  return messages;
}

/**
 * Anthropic's Messages API, streamed (POST {base}/v1/messages with stream: true). Text comes in content_block_delta
 * events (text_delta), a tool call as a tool_use block whose input streams as input_json_delta pieces; input tokens
 * in message_start's usage (plus cache reads and writes, which are input too), output tokens in message_delta's
 * usage (a running total: the last one counts).
 */
export class AnthropicMessagesClient implements ModelClient {
  readonly api = 'anthropic-messages' as const;

  async stream(request: ModelRequest, onText: (delta: string) => void | Promise<void>): Promise<ModelResult> {
    let text = '';
    let usage: ModelUsage | null = null;
    let stopReason: string | null = null;
    let stopped = false;
    const calls = new Map<number, { id: string; name: string; json: string }>();
    await postForEvents({
      provider: request.provider,
      url: joinUrl(request.endpoint.baseUrl, 'v1/messages'),
      headers: { 'x-api-key': request.endpoint.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
      body: {
        model: request.model,
        max_tokens: request.maxTokens,
        ...(request.systemPrompt.trim() ? { system: request.systemPrompt } : {}),
        messages: messagesOf(request.transcript),
        ...(request.tools.length > 0 ? { tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })) } : {}),
        stream: true,
      },
      signal: request.signal,
      onEvent: async (event) => {
        if (event.event === 'ping') return;
        const data = eventJson(request.provider, event);
        const type = typeof data.type === 'string' ? data.type : event.event;
        if (event.event === 'error' || type === 'error') throw streamError(request.provider, data);
        const index = typeof data.index === 'number' ? data.index : -1;
        if (type === 'message_start') {
          const start = (data.message as { usage?: Record<string, unknown> } | undefined)?.usage ?? {};
          const input = tokenCount(start.input_tokens) + tokenCount(start.cache_creation_input_tokens) + tokenCount(start.cache_read_input_tokens);
          usage = { inputTokens: input, outputTokens: tokenCount(start.output_tokens) };
        } else if (type === 'content_block_start') {
          const block = data.content_block as { type?: string; id?: unknown; name?: unknown } | undefined;
          if (block?.type === 'tool_use') calls.set(index, { id: String(block.id ?? `toolu_${index}`), name: String(block.name ?? ''), json: '' });
        } else if (type === 'content_block_delta') {
          const delta = data.delta as { type?: string; text?: unknown; partial_json?: unknown } | undefined;
          if (delta?.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') {
            text += delta.text;
            await onText(delta.text);
          } else if (delta?.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
            const call = calls.get(index);
            if (call) call.json += delta.partial_json;
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
    const toolCalls: ToolCall[] = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => ({ id: call.id, name: call.name, input: parseToolInput(call.json) }));
    return { text, usage, stopReason, toolCalls };
  }
}
