// `omni serve` for the harness e2e, run from source with tsx: the same server, except that the vault's Anthropic
// provider sends its requests to a local mock (the vault has no custom base URL for Anthropic connections, so the
// test replaces the provider's API address, the one thing `omni serve` cannot be told).
//
//   node --import tsx e2e/harnessHostMain.ts <port> <home> <anthropic mock origin>
import { join } from 'node:path';
import { ProviderRegistry } from '../src-main/node/vault/providers';
import { startServer } from '../src-main/server/server';
import { serveUntilStopped } from './serveUntilStopped';

async function main(): Promise<void> {
  const [port, home, anthropicOrigin] = process.argv.slice(2);
  const anthropic = new ProviderRegistry().get('anthropic');
  const server = await startServer({
    home,
    version: '0.0.0-e2e',
    port: Number(port),
    rendererDir: join(__dirname, '..', 'dist', 'renderer'),
    providers: new ProviderRegistry([{ ...anthropic, apiBaseUrl: anthropicOrigin, apiDomains: ['127.0.0.1'] }]),
  });
  serveUntilStopped(server);
}

void main();
