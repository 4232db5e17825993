// The child process e2e/oidcServerProcess.ts starts: the vault tests' real authorization server (oidc-provider, an
// ES module Playwright's loader does not take), on 127.0.0.1, until stdin closes or a signal arrives.
import { CLIENT_ID, startOidcTestServer } from '../test/vault/oidcTestServer';

void (async () => {
  const server = await startOidcTestServer({ intervalS: 1 });
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.stdout.write(`oidc test server ready ${JSON.stringify({ issuer: server.issuer, clientId: CLIENT_ID })}\n`);
})();
