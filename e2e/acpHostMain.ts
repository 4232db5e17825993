// `omni serve` for the ACP e2e, run from source with tsx: the same server, except that ACP agents start through the
// plain launcher. The test's agent is the scripted fake (test/acp/fakeAcpAgent.ts: node + tsx from this checkout),
// which lives outside what the default, sandboxed launcher shows an agent; no keychain is needed for it.
//
//   node --import tsx e2e/acpHostMain.ts <port> <home>
import { join } from 'node:path';
import { AcpPlainLauncher } from '../src-main/node/acp/acpPlainLauncher';
import { startServer } from '../src-main/server/server';
import { serveUntilStopped } from './serveUntilStopped';

async function main(): Promise<void> {
  const [port, home] = process.argv.slice(2);
  const server = await startServer({
    home,
    version: '0.0.0-e2e',
    port: Number(port),
    rendererDir: join(__dirname, '..', 'dist', 'renderer'),
    keychain: 'off',
    acpLauncher: new AcpPlainLauncher(),
  });
  serveUntilStopped(server);
}

void main();
