// A real host (real keychain in a private gnome-keyring, SQLite, consent engine, credential proxy) whose Anthropic
// and OpenAI providers point at the mock provider servers, with model-backed agents installed in its home and an
// API key connected per provider. What the model-agent tests start from.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRunEvent, AgentRunInfo, ConsentAnswer, Contract } from '../../src-preload/contract';
import type { RpcClient } from '../../src-preload/rpc';
import type { AgentResponse, SpawnAgentOptions } from '../../src-main/node/goal/metaShell/spawnAgentTypes';
import { ProviderRegistry, type Provider } from '../../src-main/node/vault/providers';
import { startServer, type RunningServer } from '../../src-main/server/server';
import { tempDir } from '../helpers';
import { startMockProvider, type MockProvider, type MockScript } from '../mockProviders';
import { connectClient } from '../server/connect';

export type ProviderId = 'anthropic' | 'openai' | 'openai-compatible';

export interface LlmHost {
  server: RunningServer;
  client: RpcClient<Contract>;
  home: string;
  /** The sessions' workspace folder. */
  workspace: string;
  sessionId: string;
  mocks: Record<ProviderId, MockProvider>;
  /** The real keys, as connected; the mocks must receive exactly these. */
  keys: Record<ProviderId, string>;
  connectionIds: Record<ProviderId, string>;
  /** Installs `<home>/agents/<name>` with a manifest declaring oauth:<provider>.api (and `extra` capabilities) and the definition. */
  installAgent(name: string, provider: string, definition?: string, extra?: string[]): void;
  /** The user's grant of oauth:<provider>.api to the agent in the session (no card). */
  grant(agent: string, provider: string, sessionId?: string): string;
  spawn(agent: string, systemPrompt: string, userMessage: string, options?: SpawnAgentOptions, sessionId?: string): Promise<AgentResponse>;
  /** Another session on the same workspace (its grants and cards its own). */
  newSession(): Promise<string>;
  /** The session's last run and its events, replayed from the start. */
  lastRun(sessionId?: string): Promise<{ info: AgentRunInfo; events: AgentRunEvent[] }>;
  /**
   * Answers every consent card of the session with `answer`; resolves once the host follows the subscription, with
   * the list the capabilities asked are added to, in order.
   */
  answerCards(answer: ConsentAnswer, sessionId?: string): Promise<string[]>;
  ledgerText(): Promise<string>;
  close(): Promise<void>;
}

function mockProviderEntry(id: 'anthropic' | 'openai', mock: MockProvider): Provider {
  const anthropic = id === 'anthropic';
  return {
    kind: 'api_key',
    id,
    name: `${id} (mock)`,
    placement: anthropic ? 'x-api-key' : 'bearer',
    apiDomains: ['127.0.0.1'],
    apiBaseUrl: mock.baseUrl,
    proxyEnv: anthropic ? { baseUrl: 'ANTHROPIC_BASE_URL', apiKey: 'ANTHROPIC_API_KEY' } : { baseUrl: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY' },
  };
}

export function manifestFor(name: string, provider: string, extra: string[] = []): string {
  return [
    'schema_version = "0.1"',
    `name = "${name}"`,
    'version = "0.1.0"',
    'entry = "agent.llm.toml"',
    'sandbox = "wasm"',
    `capabilities = ${JSON.stringify([`oauth:${provider}.api`, ...extra])}`,
    `oauth_scopes = ["${provider}:api"]`,
    'resources.cpu = "500m"',
    'resources.mem = "64Mi"',
    'ui.hints = ["streaming"]',
    '',
  ].join('\n');
}

export async function startLlmHost(scripts: Partial<Record<ProviderId, MockScript>> = {}, extraProviders: Provider[] = []): Promise<LlmHost> {
  const mocks: Record<ProviderId, MockProvider> = {
    anthropic: await startMockProvider('anthropic', { script: scripts.anthropic }),
    openai: await startMockProvider('openai', { script: scripts.openai }),
    'openai-compatible': await startMockProvider('chat', { script: scripts['openai-compatible'] }),
  };
  const dir = tempDir('llmhome');
  const workspace = tempDir('llmws');
  const rendererDir = join(dir.path, 'renderer-under-test');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>test</title>');
  const providers = new ProviderRegistry([mockProviderEntry('anthropic', mocks.anthropic), mockProviderEntry('openai', mocks.openai), ...extraProviders]);
  const server = await startServer({ home: dir.path, version: '0.0.0-test', rendererDir, port: 0, keychain: 'os', providers });
  const client = await connectClient(server);
  const { services } = server;
  const keys: Record<ProviderId, string> = {
    anthropic: `sk-ant-api03-${randomBytes(30).toString('base64url')}`,
    openai: `sk-proj-${randomBytes(30).toString('base64url')}`,
    'openai-compatible': `ollama-${randomBytes(20).toString('hex')}`,
  };
  const connectionIds = {} as Record<ProviderId, string>;
  for (const provider of ['anthropic', 'openai', 'openai-compatible'] as const) {
    const baseUrl = provider === 'openai-compatible' ? mocks[provider].baseUrl : undefined;
    const connection = await client.call('credentials.addApiKey', { provider, apiKey: keys[provider], ...(baseUrl ? { baseUrl } : {}) });
    connectionIds[provider] = connection.id;
  }
  const session = await client.call('session.create', { workspace: workspace.path });

  const host: LlmHost = {
    server,
    client,
    home: dir.path,
    workspace: workspace.path,
    sessionId: session.id,
    mocks,
    keys,
    connectionIds,
    installAgent(name, provider, definition = `provider = "${provider}"\n`, extra = []) {
      const folder = join(dir.path, 'agents', name);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'manifest.toml'), manifestFor(name, provider, extra));
      writeFileSync(join(folder, 'agent.llm.toml'), definition);
    },
    grant(agent, provider, sessionId = session.id) {
      return services.consent.grant({ agentId: agent, sessionId, capability: `oauth:${provider}.api`, durationS: 600 }, 'user').id;
    },
    spawn(agent, systemPrompt, userMessage, options = {}, sessionId = session.id) {
      return services.spawnAgent.spawn(agent, systemPrompt, userMessage, options, { sessionId, actor: 'user' });
    },
    async newSession() {
      return (await client.call('session.create', { workspace: workspace.path })).id;
    },
    async lastRun(sessionId = session.id) {
      const runs = await client.call('agent.runs', { sessionId });
      const info = runs.at(-1)!;
      const events: AgentRunEvent[] = [];
      await new Promise<void>((resolve, reject) => {
        client.subscribe('agent.events', { runId: info.id }, { onItem: (event) => events.push(event), onEnd: (error) => (error ? reject(error) : resolve()) });
      });
      const ended = events.at(-1);
      return { info: ended?.kind === 'ended' ? ended.run : info, events };
    },
    async answerCards(answer, sessionId = session.id) {
      const asked: string[] = [];
      client.subscribe('consent.prompts', { sessionId }, {
        onItem: (event) => {
          if (event.kind !== 'pending') return;
          asked.push(event.prompt.capability);
          void client.call('consent.answer', { promptId: event.prompt.id, answer });
        },
      });
      // Calls are answered in order on the one socket: once this one is, the subscription above is live.
      await client.call('agent.runs', { sessionId });
      return asked;
    },
    async ledgerText() {
      return JSON.stringify(await client.call('ledger.list', { limit: 1000 }));
    },
    async close() {
      client.dispose();
      await server.close();
      for (const mock of Object.values(mocks)) await mock.close();
      dir.cleanup();
      workspace.cleanup();
    },
  };
  return host;
}

/** The main card's chunks (the model's text as it streamed) and the log card's text. */
export function cards(events: AgentRunEvent[]): { main: string[]; mainKinds: string[]; log: string } {
  const outputs = events.flatMap((e) => (e.kind === 'output' ? [e] : []));
  return {
    main: outputs.filter((e) => e.cardId === 'main').map((e) => e.data),
    mainKinds: [...new Set(outputs.filter((e) => e.cardId === 'main').map((e) => e.cardKind))],
    log: outputs
      .filter((e) => e.cardKind === 'log')
      .map((e) => e.data)
      .join('\n'),
  };
}
