// A real OAuth 2.0 / OpenID authorization server on 127.0.0.1 for the broker's tests: oidc-provider with its
// in-memory adapter, the device flow, PKCE (required), refresh token rotation and RFC 7009 revocation turned on.
// The "user" signs in through the provider's real pages (device code form, interaction, consent); the interaction
// step is answered by this file's handler (approve or deny), the way an app's login page would answer it.
//
// One addition in front of the provider: oidc-provider defines RFC 8628's slow_down error but never sends it, and
// always leaves `interval` to its default. The front records every device-code poll, answers slow_down for polls
// that come too early (and, to make a server under load, for the first N polls of each code), and announces the
// interval the test chose; everything else is the provider's own answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'omni-desktop';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface OidcTestServerOptions {
  /** Device code lifetime, seconds. */
  deviceCodeTtlS?: number;
  /** The polling interval announced to the client, seconds. */
  intervalS?: number;
  /** Answer slow_down to this many first polls of each device code. */
  slowDownFirstPolls?: number;
  /** How the user answers the sign-in. */
  decision?: 'approve' | 'deny';
}

export interface PollRecord {
  at: number;
  answer: string;
}

export interface OidcTestServer {
  issuer: string;
  provider: Provider;
  /** Device-code polls seen, per device code, in order, with what the front or the provider answered. */
  polls: Map<string, PollRecord[]>;
  /** Polls that came sooner than the interval then in force (a client that does not honour it). */
  tooEarly: number;
  /** Device authorization requests received (a client that must not start a flow sends none). */
  deviceAuthorizations: number;
  setDecision(decision: 'approve' | 'deny'): void;
  /** The user revokes the app's access at the provider: every grant made so far ends, with its refresh tokens. */
  revokeAll(): Promise<void>;
  close(): Promise<void>;
}

export async function startOidcTestServer(options: OidcTestServerOptions = {}): Promise<OidcTestServer> {
  const intervalS = options.intervalS ?? 1;
  let decision = options.decision ?? 'approve';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token', DEVICE_GRANT],
        response_types: ['code'],
        // RFC 8252 §7.3: for a native client's loopback IP redirect, any port is accepted.
        redirect_uris: ['http://127.0.0.1/callback'],
      },
    ],
    scopes: ['openid', 'offline_access', 'repo', 'read:user'],
    features: {
      deviceFlow: { enabled: true },
      revocation: { enabled: true },
      devInteractions: { enabled: false },
    },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    issueRefreshToken: async () => true,
    ttl: { DeviceCode: options.deviceCodeTtlS ?? 600, AccessToken: 3600, RefreshToken: 86_400, Interaction: 600, Session: 3600, Grant: 86_400 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    cookies: { keys: ['omni-test-cookie-key-not-a-secret'] },
  });
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/device/auth') result.deviceAuthorizations++;
    if (ctx.path === '/device/auth' && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') {
      (ctx.body as Record<string, unknown>).interval = intervalS;
    }
  });

  const polls = new Map<string, PollRecord[]>();
  const grantIds = new Set<string>();
  const required = new Map<string, number>();
  const result: OidcTestServer = {
    issuer,
    provider,
    polls,
    tooEarly: 0,
    deviceAuthorizations: 0,
    setDecision: (next) => (decision = next),
    revokeAll: async () => {
      for (const id of grantIds) await (await provider.Grant.find(id))?.destroy();
      grantIds.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const handle = provider.callback();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname.startsWith('/interaction/')) return answerInteraction(provider, req, res, decision, (id) => grantIds.add(id));
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(await readBody(req));
        // Parsed here, so the provider takes the body from req.body (its documented path for pre-parsed bodies).
        (req as IncomingMessage & { body?: Record<string, string> }).body = Object.fromEntries(form);
        const deviceCode = form.get('grant_type') === DEVICE_GRANT ? form.get('device_code') : null;
        if (deviceCode) {
          const seen = polls.get(deviceCode) ?? [];
          polls.set(deviceCode, seen);
          const now = Date.now();
          const last = seen.at(-1);
          const interval = required.get(deviceCode) ?? intervalS;
          const early = last !== undefined && now - last.at < interval * 1000 - 50;
          if (early) result.tooEarly++;
          if (early || seen.length < (options.slowDownFirstPolls ?? 0)) {
            required.set(deviceCode, interval + 5);
            seen.push({ at: now, answer: 'slow_down' });
            res.writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store' });
            res.end(JSON.stringify({ error: 'slow_down', error_description: 'polling too quickly: wait 5 s longer between polls' }));
            return;
          }
          const record: PollRecord = { at: now, answer: '?' };
          seen.push(record);
          res.on('finish', () => {
            if (record.answer === '?') record.answer = String(res.statusCode);
          });
          captureError(res, (error) => (record.answer = error));
        }
      }
      handle(req, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  return result;
}

/** The sign-in page's answer: the user logs in as "user-1" and approves every requested scope, or denies. */
async function answerInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse, decision: 'approve' | 'deny', onGrant: (grantId: string) => void): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (decision === 'deny') {
    await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the user denied the request' }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId ? ((await provider.Grant.find(details.grantId)) ?? newGrant(provider, details)) : newGrant(provider, details);
  grant.addOIDCScope(String(details.params.scope ?? ''));
  const grantId = await grant.save();
  onGrant(grantId);
  await provider.interactionFinished(req, res, { login: { accountId: 'user-1' }, consent: { grantId } }, { mergeWithLastSubmission: true });
}

function newGrant(provider: Provider, details: { params: Record<string, unknown> }) {
  return new provider.Grant({ accountId: 'user-1', clientId: String(details.params.client_id) });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Records the `error` of a JSON error answer as it is written. */
function captureError(res: ServerResponse, onError: (error: string) => void): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  (res as { end: (...args: unknown[]) => ServerResponse }).end = (...args: unknown[]) => {
    const body = args[0];
    if ((typeof body === 'string' || Buffer.isBuffer(body)) && res.statusCode >= 400) {
      try {
        const parsed = JSON.parse(body.toString()) as { error?: string };
        if (parsed.error) onError(parsed.error);
      } catch {
        // not JSON: keep the status code
      }
    }
    return end(...args);
  };
}
