import { errorForStatus, LlmError } from './llmErrors';
import { SseParser, type ServerSentEvent } from './sseParser';

export interface StreamingPost {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  /** Each event as it arrives; the stream is read on only after its promise settles. */
  onEvent: (event: ServerSentEvent) => void | Promise<void>;
}

/**
 * POSTs a JSON body and reads the answer as server-sent events. An HTTP error becomes the typed LlmError for its
 * status (the provider's or the credential proxy's own message in it); a connection that fails or breaks off is
 * provider_unreachable / provider_stream_error. An abort through `signal` rejects with the signal's reason.
 */
export async function postForEvents(post: StreamingPost): Promise<void> {
  let response: Response;
  try {
    response = await fetch(post.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...post.headers },
      body: JSON.stringify(post.body),
      signal: post.signal,
    });
  } catch (error) {
    if (post.signal.aborted) throw post.signal.reason;
    throw new LlmError('provider_unreachable', `${post.provider} could not be reached at ${new URL(post.url).origin}: ${causeOf(error)}`, 'check that the host can reach the provider (or the local server is running)');
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw errorForStatus(post.provider, response.status, text, response.headers.get('retry-after'));
  }
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream') || !response.body) {
    const text = await response.text().catch(() => '');
    throw new LlmError('provider_stream_error', `${post.provider} answered with ${type || 'no content type'}, not a stream of events: ${text.slice(0, 200)}`, 'check the connection\'s base URL: it must be the API\'s, e.g. http://127.0.0.1:11434/v1 for Ollama', response.status);
  }
  const parser = new SseParser();
  const reader = response.body.getReader();
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (post.signal.aborted) throw post.signal.reason;
        throw new LlmError('provider_stream_error', `the ${post.provider} stream broke off: ${causeOf(error)}`, 'run the agent again');
      }
      const events = chunk.done ? parser.end() : parser.push(chunk.value);
      for (const event of events) await post.onEvent(event);
      if (chunk.done) return;
    }
  } finally {
    reader.releaseLock();
    // Whatever ended the read (an error event, an abort), the connection is not reused half-read.
    void response.body.cancel().catch(() => undefined);
  }
}

/** JSON of one event's data, or a stream error naming the event. */
export function eventJson(provider: string, event: ServerSentEvent): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(event.data);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new LlmError('provider_stream_error', `${provider} sent a "${event.event}" event whose data is not a JSON object`, 'the server does not speak this API; check the connection\'s base URL and the agent\'s api');
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}
