// Server-sent events as the provider APIs send them: `event: NAME` + `data: JSON` (Anthropic, OpenAI Responses) or
// bare `data: JSON` lines ending in `data: [DONE]` (Chat Completions).
import type { ServerResponse } from 'node:http';

export class SseWriter {
  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  }

  /** One named event; the JSON payload on one data line. */
  event(name: string, data: unknown): void {
    this.res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** One unnamed event (Chat Completions chunks). */
  data(data: unknown): void {
    this.res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  end(): void {
    this.res.end();
  }
}

/** Answers with JSON. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}
