// One mock provider: an HTTP server on 127.0.0.1 (random port) speaking one API dialect, recording every request
// and answering from a script.
//
//   const mock = await startMockProvider('anthropic', { script: (request) => ({ text: 'hi' }) });
//   ANTHROPIC_BASE_URL = mock.baseUrl            // anthropic: the origin (the client adds /v1/messages)
//   OPENAI_BASE_URL    = mock.baseUrl            // openai / chat: origin + "/v1"
//   GOOGLE_GEMINI_BASE_URL = mock.baseUrl        // gemini: the origin (the SDK adds /v1beta/models/…)
//   mock.requests / mock.unhandled() / conversationOf(mock.requests[i]) / await mock.close()
// From another process: GET {origin}/_mock/requests and friends (mockControl.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicNotFound, routeAnthropic } from './anthropicMessages';
import { chatNotFound, routeChat } from './chatCompletions';
import { geminiNotFound, isGeminiTurn, routeGemini } from './geminiGenerate';
import { CONTROL_PREFIX, handleControl } from './mockControl';
import { echoScript, type MockScript } from './mockScript';
import { openaiNotFound, ResponseStore, routeResponses } from './openaiResponses';
import { type MockApi, type RecordedRequest, RequestRecorder } from './requestRecorder';

export interface MockProvider {
  api: MockApi;
  /** What to give a client as its base URL (see the header). */
  baseUrl: string;
  origin: string;
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Requests to paths the mock does not serve (answered 404). */
  unhandled(): RecordedRequest[];
  /** Requests to the API's main endpoint (/v1/messages, /v1/responses, /v1/chat/completions; Gemini's generateContent and streamGenerateContent). */
  turns(): RecordedRequest[];
  /** Replaces the script for later requests. */
  setScript(script: MockScript): void;
  /** Calls `listener` after each request is answered; returns the unsubscribe. */
  onRequest(listener: (request: RecordedRequest) => void): () => void;
  close(): Promise<void>;
}

const MAIN_PATH: Record<Exclude<MockApi, 'gemini'>, string> = { anthropic: '/v1/messages', openai: '/v1/responses', chat: '/v1/chat/completions' };

function isTurn(api: MockApi, request: RecordedRequest): boolean {
  // Gemini names the model in the path (/v1beta/models/MODEL:generateContent), so its turns are matched by shape.
  if (api === 'gemini') return isGeminiTurn(request);
  return request.method === 'POST' && request.path === MAIN_PATH[api];
}

export async function startMockProvider(api: MockApi, options: { script?: MockScript } = {}): Promise<MockProvider> {
  let script = options.script ?? echoScript;
  const recorder = new RequestRecorder();
  const store = new ResponseStore();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}${String(++counter).padStart(6, '0')}`;

  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.url?.startsWith(CONTROL_PREFIX)) return handleControl(req, res, recorder, (next) => (script = next));
      const request = await recorder.record(api, req);
      res.once('close', () => {
        if (!res.writableFinished) request.clientClosedEarly = true;
      });
      try {
        const handled =
          api === 'anthropic'
            ? await routeAnthropic(request, res, script, nextId)
            : api === 'openai'
              ? await routeResponses(request, res, script, nextId, store)
              : api === 'gemini'
                ? await routeGemini(request, res, script, nextId)
                : await routeChat(request, res, script, nextId);
        if (!handled) {
          request.handled = false;
          if (api === 'anthropic') anthropicNotFound(res, request);
          else if (api === 'openai') openaiNotFound(res, request);
          else if (api === 'gemini') geminiNotFound(res, request);
          else chatNotFound(res, request);
        }
      } catch (error) {
        // A throwing script is a test bug: answer 500 with the message so the client's error names it.
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'mock_script_error', message: (error as Error).message } }));
      }
      recorder.notify(request);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    api,
    origin,
    baseUrl: api === 'anthropic' || api === 'gemini' ? origin : `${origin}/v1`,
    requests: recorder.requests,
    unhandled: () => recorder.unhandled(),
    turns: () => recorder.requests.filter((request) => isTurn(api, request)),
    setScript: (next) => (script = next),
    onRequest: (listener) => recorder.onRequest(listener),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
