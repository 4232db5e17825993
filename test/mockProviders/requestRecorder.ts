// Every request a mock provider receives, kept so tests can assert what reached it: the path, the headers, the API
// key as received (x-api-key, x-goog-api-key or the Bearer token) and the parsed JSON body.
import type { IncomingMessage } from 'node:http';

export type MockApi = 'anthropic' | 'openai' | 'chat' | 'gemini';

export interface RecordedRequest {
  /** Which mock received it. */
  api: MockApi;
  method: string;
  /** Path and query as received, e.g. "/v1/messages?beta=true". */
  url: string;
  /** Path without the query. */
  path: string;
  /** Lowercased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** x-api-key, else x-goog-api-key (Gemini), else the Authorization Bearer token, else null. */
  apiKey: string | null;
  rawBody: string;
  /** The JSON body, or undefined when the body was empty or not JSON. */
  body: unknown;
  /**
   * Responses API only: the input items of the `previous_response_id` chain (oldest first, each response's input
   * then its output), prepended to this request's own input. Empty otherwise.
   */
  priorItems: unknown[];
  /** False when no route matched (answered 404): the way to discover what a CLI calls that the mock lacks. */
  handled: boolean;
  /** Set (true) when the client went away before the answer was complete (an aborted stream). */
  clientClosedEarly?: boolean;
}

export class RequestRecorder {
  readonly requests: RecordedRequest[] = [];
  private readonly listeners = new Set<(request: RecordedRequest) => void>();

  async record(api: MockApi, req: IncomingMessage): Promise<RecordedRequest> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1] ?? null;
    const url = req.url ?? '/';
    const request: RecordedRequest = {
      api,
      method: req.method ?? 'GET',
      url,
      path: url.split('?')[0],
      headers,
      apiKey: headers['x-api-key'] ?? headers['x-goog-api-key'] ?? bearer,
      rawBody,
      body,
      priorItems: [],
      handled: true,
    };
    this.requests.push(request);
    return request;
  }

  /** Called once a request's reply has been decided (handled is final by then). */
  notify(request: RecordedRequest): void {
    for (const listener of this.listeners) listener(request);
  }

  onRequest(listener: (request: RecordedRequest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Requests no route answered (404). */
  unhandled(): RecordedRequest[] {
    return this.requests.filter((request) => !request.handled);
  }
}
