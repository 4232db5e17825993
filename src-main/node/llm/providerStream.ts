import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { errorForStatus, LlmError } from './llmErrors';
import { SseParser, type ServerSentEvent } from '../base/serverSentEvents';

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
 *
 * node:http rather than fetch: a stream cut by the credential proxy ends with an SSE `error` event followed at once by
 * the broken connection, and a WHATWG body stream that errors drops the chunks its reader has not taken yet, so the
 * reason for the cut could be lost. Here every chunk is parsed as it arrives and its events are queued; they are all
 * handled before the break is reported.
 */
export function postForEvents(post: StreamingPost): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const url = new URL(post.url);
    const payload = Buffer.from(JSON.stringify(post.body));
    const headers = { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': String(payload.length), ...post.headers };
    const transport = url.protocol === 'https:' ? https : http;
    let settled = false;
    const settle = (error: unknown) => {
      if (settled) return;
      settled = true;
      if (post.signal.aborted) reject(post.signal.reason);
      else if (error) reject(error);
      else resolve();
    };
    const request = transport.request(url, { method: 'POST', headers, signal: post.signal, agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      const type = String(response.headers['content-type'] ?? '');
      if (status < 200 || status >= 300 || !type.includes('text/event-stream')) {
        readText(response).then((text) => {
          if (status < 200 || status >= 300) return settle(errorForStatus(post.provider, status, text, headerValue(response.headers['retry-after'])));
          settle(new LlmError('provider_stream_error', `${post.provider} answered with ${type || 'no content type'}, not a stream of events: ${text.slice(0, 200)}`, "check the connection's base URL: it must be the API's, e.g. http://127.0.0.1:11434/v1 for Ollama", status));
        }, settle);
        return;
      }
      const parser = new SseParser();
      const queue: ServerSentEvent[] = [];
      let ended = false;
      let broken: LlmError | null = null;
      let draining = false;
      const drain = async () => {
        if (draining || settled) return;
        draining = true;
        try {
          while (queue.length > 0 && !settled) await post.onEvent(queue.shift()!);
          if (broken) settle(broken);
          else if (ended) settle(null);
        } catch (error) {
          response.destroy();
          settle(error);
        } finally {
          draining = false;
        }
      };
      response.on('data', (chunk: Buffer) => {
        queue.push(...parser.push(chunk));
        void drain();
      });
      response.on('end', () => {
        queue.push(...parser.end());
        ended = true;
        void drain();
      });
      const breakOff = (why: string) => {
        if (ended) return;
        broken ??= new LlmError('provider_stream_error', `the ${post.provider} stream broke off before the answer was complete (${why})`, 'run the agent again');
        void drain();
      };
      response.on('error', (error) => breakOff(causeOf(error)));
      response.on('close', () => breakOff('connection closed'));
    });
    request.on('error', (error) => {
      if (settled) return;
      if (post.signal.aborted) return settle(null);
      settle(new LlmError('provider_unreachable', `${post.provider} could not be reached at ${url.origin}: ${causeOf(error)}`, 'check that the host can reach the provider (or the local server is running)'));
    });
    request.end(payload);
  });
}

function readText(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function headerValue(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
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
  const { code, message } = error as { code?: string; message?: string };
  return code ?? message ?? String(error);
}
