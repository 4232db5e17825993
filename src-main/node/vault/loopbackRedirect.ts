import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthFlowError } from './vaultErrors';

const CALLBACK_PATH = '/callback';

/**
 * The RFC 8252 §7.3 loopback redirect: a listener on 127.0.0.1 at a port the OS picks, for one authorization
 * response. A callback whose `state` does not match is refused (400) and the listener keeps waiting for the real
 * one; the first callback with the matching state is accepted, and then the listener closes, so the response can
 * be delivered exactly once.
 */
export class LoopbackRedirect {
  private readonly server: Server;
  private settle!: { resolve: (url: URL) => void; reject: (error: Error) => void };
  /** The callback URL as the browser delivered it (code, state, iss); rejects on timeout or close. */
  readonly callback: Promise<URL>;
  /** Callbacks refused for a wrong or missing state, for the record. */
  refused = 0;
  private done = false;
  /** http://127.0.0.1:<port>/callback: an IP literal, not "localhost" (RFC 8252 §8.3). Set once listening. */
  redirectUri = '';
  private timer: NodeJS.Timeout | undefined;

  private constructor(private readonly expectedState: string) {
    this.callback = new Promise<URL>((resolve, reject) => (this.settle = { resolve, reject }));
    this.callback.catch(() => {});
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.redirectUri);
      res.setHeader('cache-control', 'no-store');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      if (this.done || req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
        res.writeHead(404).end(page('Not found', 'This address only receives one sign-in answer.'));
        return;
      }
      if (!this.stateMatches(url.searchParams.get('state'))) {
        this.refused++;
        res.writeHead(400).end(page('Sign-in refused', 'This answer does not belong to the sign-in Omniscient Shell started (its state does not match). Nothing was connected.'));
        return;
      }
      this.done = true;
      const failed = url.searchParams.has('error');
      res.writeHead(failed ? 400 : 200).end(
        failed ? page('Sign-in not completed', 'The provider did not grant access. You can close this window.') : page('Signed in', 'You can close this window and return to Omniscient Shell.'),
      );
      this.close();
      this.settle.resolve(url);
    });
  }

  /**
   * Starts listening; `timeoutMs` bounds the wait for the browser. `port` 0 lets the OS pick one (RFC 8252 §7.3); a
   * fixed port is only for providers that match the redirect URI's port exactly (set up with the OAuth client).
   */
  static async open(expectedState: string, timeoutMs: number, port = 0): Promise<LoopbackRedirect> {
    const redirect = new LoopbackRedirect(expectedState);
    await new Promise<void>((resolve, reject) => {
      redirect.server.once('error', reject);
      redirect.server.listen(port, '127.0.0.1', () => resolve());
    });
    redirect.redirectUri = `http://127.0.0.1:${(redirect.server.address() as AddressInfo).port}${CALLBACK_PATH}`;
    redirect.timer = setTimeout(() => redirect.fail(new OAuthFlowError('timeout', `no sign-in answer arrived within ${Math.round(timeoutMs / 1000)} s; start the connection again`)), timeoutMs);
    return redirect;
  }

  /** Ends the wait (cancel): the callback promise rejects with `error`. */
  fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    this.close();
    this.settle.reject(error);
  }

  private close(): void {
    clearTimeout(this.timer);
    this.server.close();
    this.server.closeAllConnections();
  }

  private stateMatches(state: string | null): boolean {
    if (state === null) return false;
    const got = Buffer.from(state);
    const want = Buffer.from(this.expectedState);
    return got.length === want.length && timingSafeEqual(got, want);
  }
}

function page(title: string, text: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${text}</p>`;
}
