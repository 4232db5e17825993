// Server-sent events as the provider APIs send them: `event: NAME` + `data: JSON` (Anthropic, OpenAI Responses) or
// bare `data: JSON` lines ending in `data: [DONE]` (Chat Completions).
import type { ServerResponse } from 'node:http';

/**
 * Collects a stream's events and sends them on end(): all at once, or `delayMs` apart after the first (so a test can
 * act mid-stream, e.g. abort). Stops early when the client goes away.
 */
export class SseWriter {
  private readonly chunks: string[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly delayMs = 0,
  ) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  }

  /** One named event; the JSON payload on one data line. */
  event(name: string, data: unknown): void {
    this.chunks.push(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** One unnamed event (Chat Completions chunks). */
  data(data: unknown): void {
    this.chunks.push(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  /** Sends the events and ends the response; resolves when done or when the client went away. */
  async end(): Promise<void> {
    if (this.delayMs <= 0) {
      this.res.end(this.chunks.join(''));
      return;
    }
    for (const [index, chunk] of this.chunks.entries()) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if (this.res.destroyed) return;
      this.res.write(chunk);
    }
    this.res.end();
  }
}

/** Answers with JSON. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}
