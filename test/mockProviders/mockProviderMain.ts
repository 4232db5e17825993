// A standalone process serving all three mock providers, for e2e tests and hosts started by other tests:
//
//   node --import tsx test/mockProviders/mockProviderMain.ts [script.json]
//
// prints ONE JSON line to stdout, then keeps serving until SIGTERM/SIGINT or stdin closes:
//   {"anthropic":"http://127.0.0.1:P1","openai":"http://127.0.0.1:P2/v1","chat":"http://127.0.0.1:P3/v1"}
// (anthropic is the origin to use as ANTHROPIC_BASE_URL; openai/chat include /v1, as OPENAI_BASE_URL does).
// script.json: [{"match": "substring of the last user message", "text"?: "...", "toolCalls"?: [{"name", "input"}],
// "usage"?: {"inputTokens", "outputTokens"}, "error"?: {"status", "message"}}, ...]; first match wins, others
// get "mock reply to: <last user text>". Each request is logged to stderr as one JSON line
// {api, method, url, apiKeyTail, handled} (the key's last 4 characters only). A test reads what a mock received with
// GET <origin>/_mock/requests (origin = the URL without /v1), and can swap replies with PUT <origin>/_mock/replies
// (see mockControl.ts).
import { fstatSync, readFileSync } from 'node:fs';
import { cannedScript, parseCannedReplies } from './cannedScript';
import { echoScript } from './mockScript';
import { type MockProvider, startMockProvider } from './mockProviderServer';

async function main(): Promise<void> {
  const file = process.argv[2];
  let script = echoScript;
  if (file) {
    try {
      script = cannedScript(parseCannedReplies(JSON.parse(readFileSync(file, 'utf8')), file));
    } catch (error) {
      process.stderr.write(`mockProviderMain: cannot use ${file}: ${(error as Error).message}\n`);
      process.exit(2);
    }
  }
  const providers: MockProvider[] = await Promise.all((['anthropic', 'openai', 'chat'] as const).map((api) => startMockProvider(api, { script })));
  for (const provider of providers) {
    provider.onRequest((request) =>
      process.stderr.write(
        `${JSON.stringify({ api: request.api, method: request.method, url: request.url, apiKeyTail: request.apiKey?.slice(-4) ?? null, handled: request.handled })}\n`,
      ),
    );
  }
  const [anthropic, openai, chat] = providers;
  process.stdout.write(`${JSON.stringify({ anthropic: anthropic.baseUrl, openai: openai.baseUrl, chat: chat.baseUrl })}\n`);
  const stop = async () => {
    await Promise.all(providers.map((provider) => provider.close()));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  // A parent that dies without signalling still ends us: stdin closes with it (only when stdin is a pipe; with
  // stdin 'ignore' it is /dev/null, which ends at once).
  if (fstatSync(0).isFIFO()) {
    process.stdin.on('end', () => void stop());
    process.stdin.resume();
  }
}

void main();
