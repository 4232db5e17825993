// A stand-in for Anthropic's Messages API that streams the start of an answer and then holds the stream open until
// the test lets it finish: what a test needs to see text on the card while the model is still answering, and to cut
// a stream in the middle. (The mock providers answer whole replies at once.)
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Provider } from '../../src-main/node/vault/providers';

export interface SlowAnthropic {
  provider: Provider;
  /** The keys requests arrived with (x-api-key). */
  keys: string[];
  /** Resolves when the first piece of text has been sent. */
  started: Promise<void>;
  /** Sends the rest and ends the stream (if it is still open). */
  finish(): void;
  /** Streams still open toward the proxy (a stopped run's call must close its own). */
  readonly openStreams: number;
  close(): Promise<void>;
}

const sse = (res: ServerResponse, type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);

export async function startSlowAnthropic(id: string, firstPiece: string, rest: string): Promise<SlowAnthropic> {
  const keys: string[] = [];
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    keys.push(String(req.headers['x-api-key'] ?? ''));
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      sse(res, 'message_start', { message: { id: 'msg_slow', role: 'assistant', content: [], usage: { input_tokens: 5, output_tokens: 1 } } });
      sse(res, 'content_block_delta', { index: 0, delta: { type: 'text_delta', text: firstPiece } });
      open.add(res);
      res.on('close', () => open.delete(res));
      markStarted();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    provider: { kind: 'api_key', id, name: 'Anthropic (slow stand-in)', placement: 'x-api-key', apiDomains: ['127.0.0.1'], apiBaseUrl: origin, proxyEnv: { baseUrl: 'ANTHROPIC_BASE_URL', apiKey: 'ANTHROPIC_API_KEY' } },
    keys,
    started,
    get openStreams() {
      return open.size;
    },
    finish() {
      for (const res of open) {
        sse(res, 'content_block_delta', { index: 0, delta: { type: 'text_delta', text: rest } });
        sse(res, 'message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 12 } });
        sse(res, 'message_stop', {});
        res.end();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
