import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { OidcTestServerOptions } from '../test/vault/oidcTestServer';

const root = join(__dirname, '..');
const READY = /oidc test server ready (\{.*\})/;

export interface OidcServerProcess {
  issuer: string;
  clientId: string;
  /** How the user answers the sign-in page from now on (the server's own interaction step). */
  setDecision(decision: 'approve' | 'deny'): Promise<void>;
  /** The user revokes the app's access at the provider: every grant so far ends, refresh tokens included. */
  revokeAll(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts test/vault/oidcTestServer.ts in a child process (see oidcServerMain.ts) and resolves with its issuer. */
export function startOidcServerProcess(options: OidcTestServerOptions = {}, timeoutMs = 20_000): Promise<OidcServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'oidcServerMain.ts'), JSON.stringify(options)], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let log = '';
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const fallback = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(fallback);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the OIDC test server did not start within ${timeoutMs} ms:\n${log}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = READY.exec(log);
      if (!match) return;
      clearTimeout(timer);
      const { issuer, clientId } = JSON.parse(match[1]) as { issuer: string; clientId: string };
      // Writes a command on the server's stdin and waits for its acknowledgement on stdout.
      const command = (line: string, ack: string): Promise<void> =>
        new Promise((done) => {
          const onData = (data: Buffer): void => {
            if (!data.toString().includes(ack)) return;
            child.stdout!.off('data', onData);
            done();
          };
          child.stdout!.on('data', onData);
          child.stdin!.write(`${line}\n`);
        });
      const setDecision = (decision: 'approve' | 'deny'): Promise<void> => command(decision, `decision ${decision}`);
      resolve({ issuer, clientId, setDecision, revokeAll: () => command('revoke', 'revoked'), stop });
    });
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the OIDC test server exited early (code ${code}):\n${log}`));
    });
  });
}
