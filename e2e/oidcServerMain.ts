// The child process e2e/oidcServerProcess.ts starts: the vault tests' real authorization server (oidc-provider, an
// ES module Playwright's loader does not take), on 127.0.0.1, until stdin closes or a signal arrives. A line
// "approve" or "deny" on stdin sets how the user answers the sign-in from then on; "revoke" ends every grant made
// so far (the user revoking the app's access at the provider).
import { CLIENT_ID, startOidcTestServer, type OidcTestServerOptions } from '../test/vault/oidcTestServer';

void (async () => {
  // The server's options (code lifetime, slow_down answers) as JSON in the first argument.
  const options = JSON.parse(process.argv[2] ?? '{}') as OidcTestServerOptions;
  const server = await startOidcTestServer({ intervalS: 1, ...options });
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (text: string) => {
    for (const line of text.split('\n').map((l) => l.trim())) {
      if (line === 'approve' || line === 'deny') {
        server.setDecision(line);
        process.stdout.write(`decision ${line}\n`);
      }
      if (line === 'revoke') void server.revokeAll().then(() => process.stdout.write('revoked\n'));
    }
  });
  process.stdout.write(`oidc test server ready ${JSON.stringify({ issuer: server.issuer, clientId: CLIENT_ID })}\n`);
})();
