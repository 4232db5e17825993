import { LlmError, streamError } from './llmErrors';
import { joinUrl, tokenCount, type ModelClient, type ModelRequest, type ModelResult, type ModelUsage } from './modelClient';
import { eventJson, postForEvents } from './providerStream';
import { parseToolInput, type ToolCall, type TranscriptItem } from './transcript';

/** The conversation as Responses input items (store: false, so each call carries all of it). */
function inputOf(transcript: readonly TranscriptItem[]): unknown[] {
  const items: unknown[] = [];
  for (const item of transcript) {
    if (item.kind === 'user') {
      items.push({ role: 'user', content: item.text });
    } else if (item.kind === 'assistant') {
      if (item.text) items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: item.text }] });
      for (const call of item.toolCalls) items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: JSON.stringify(call.input) });
    } else {
      items.push({ type: 'function_call_output', call_id: item.callId, output: item.output });
    }
  }
  return items;
}

/**
 * OpenAI's Responses API, streamed (POST {base}/responses with stream: true; the base includes /v1). Text comes in
 * response.output_text.delta events, a tool call as a function_call output item (response.output_item.done); the
 * usage (input_tokens, output_tokens) in the final response.completed (or response.incomplete, when
 * max_output_tokens cut it short). response.failed and error events are errors.
 */
export class OpenAiResponsesClient implements ModelClient {
  readonly api = 'openai-responses' as const;

  async stream(request: ModelRequest, onText: (delta: string) => void | Promise<void>): Promise<ModelResult> {
    let text = '';
    let usage: ModelUsage | null = null;
    let stopReason: string | null = null;
    let finished = false;
    const toolCalls: ToolCall[] = [];
    await postForEvents({
      provider: request.provider,
      url: joinUrl(request.endpoint.baseUrl, 'responses'),
      headers: { authorization: `Bearer ${request.endpoint.apiKey}` },
      body: {
        model: request.model,
        ...(request.systemPrompt.trim() ? { instructions: request.systemPrompt } : {}),
        input: inputOf(request.transcript),
        ...(request.tools.length > 0 ? { tools: request.tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters })) } : {}),
        max_output_tokens: request.maxTokens,
        store: false,
        stream: true,
      },
      signal: request.signal,
      onEvent: async (event) => {
        const data = eventJson(request.provider, event);
        const type = typeof data.type === 'string' ? data.type : event.event;
        if (type === 'error' || event.event === 'error') throw streamError(request.provider, data);
        if (type === 'response.output_text.delta') {
          if (typeof data.delta === 'string' && data.delta !== '') {
            text += data.delta;
            await onText(data.delta);
          }
          return;
        }
        if (type === 'response.output_item.done') {
          const item = data.item as { type?: string; call_id?: unknown; name?: unknown; arguments?: unknown } | undefined;
          if (item?.type === 'function_call') toolCalls.push({ id: String(item.call_id ?? ''), name: String(item.name ?? ''), input: parseToolInput(typeof item.arguments === 'string' ? item.arguments : '') });
          return;
        }
        if (type === 'response.failed') {
          const failed = (data.response as { error?: Record<string, unknown> } | undefined)?.error ?? {};
          throw streamError(request.provider, { error: failed });
        }
        if (type === 'response.completed' || type === 'response.incomplete') {
          const response = (data.response ?? {}) as { usage?: Record<string, unknown>; status?: unknown; incomplete_details?: { reason?: unknown } | null };
          if (response.usage) usage = { inputTokens: tokenCount(response.usage.input_tokens), outputTokens: tokenCount(response.usage.output_tokens) };
          const reason = response.incomplete_details?.reason;
          stopReason = typeof reason === 'string' ? reason : typeof response.status === 'string' ? response.status : type;
          finished = true;
        }
      },
    });
    if (!finished) throw new LlmError('provider_stream_error', `the ${request.provider} stream ended before response.completed: the answer is incomplete`, 'run the agent again');
    return { text, usage, stopReason, toolCalls };
  }
}
