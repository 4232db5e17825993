// A real host for harness-session tests: the vault on the real keychain (the caller runs inside a private keyring),
// Anthropic's and OpenAI's API pointed at local mock providers (the vault has no custom base URL for them; a test
// registry replaces their API address, which is how the proxy reaches the mocks), and the installed real CLIs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Contract } from '../../../src-preload/contract';
import type { RpcClient } from '../../../src-preload/rpc';
import { ProviderRegistry, type Provider } from '../../../src-main/node/vault/providers';
import { startServer, type RunningServer } from '../../../src-main/server/server';
import { connectClient } from '../../server/connect';
import { claude, codex, skipWithoutClis } from '../realClis';

export type Client = RpcClient<Contract>;

/** The built-in provider `id` with its API at `origin` (only 127.0.0.1 may receive the key). */
export function providerAt(id: 'anthropic' | 'openai', origin: string): Provider {
  const builtIn = new ProviderRegistry().get(id);
  return { ...builtIn, apiBaseUrl: origin, apiDomains: ['127.0.0.1'] };
}

export { skipWithoutClis };

/** Starts (or restarts, on the same home) a host whose harness sessions run the real CLIs against the mocks. */
export async function startHarnessHost(home: string, providers: Provider[]): Promise<{ server: RunningServer; client: Client }> {
  // The host reads the configured CLI paths from its environment (as `omni serve` would from the user's).
  process.env.OMNI_CLAUDE_CODE_PATH = claude;
  process.env.OMNI_CODEX_PATH = codex;
  const rendererDir = join(home, 'renderer-under-test');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>test</title>');
  const server = await startServer({ home, version: '0.0.0-test', rendererDir, port: 0, keychain: 'os', providers: new ProviderRegistry(providers) });
  const client = await connectClient(server);
  return { server, client };
}
