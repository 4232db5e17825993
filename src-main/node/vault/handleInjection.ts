import type { LedgerAppend } from '../ledger/ledger';
import type { UsableCredential } from './connections';
import type { CredentialHandles } from './credentialHandles';
import { isLoopbackUrl, type CredentialPlacement } from './providers';
import { HandleInvalidError } from './vaultErrors';

/**
 * The request header a WASM agent puts its handle in, on omni.net_fetch: `{"headers": {"x-omni-handle": "omh_…"}}`.
 * The host takes it out of every request (it never goes upstream) and, for hosts of the handle's provider only,
 * puts the real credential in its place.
 */
export const HANDLE_HEADER = 'x-omni-handle';

/** Removes the handle header (any spelling) from `headers`; its value, or null when there was none. */
export function takeHandleHeader(headers: Record<string, string>): string | null {
  let value: string | null = null;
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() !== HANDLE_HEADER) continue;
    value = headers[name];
    delete headers[name];
  }
  return value;
}

/** The header that carries a credential, as the provider expects it. */
export function credentialHeader(placement: CredentialPlacement, value: string): Record<string, string> {
  if (placement === 'x-api-key') return { 'x-api-key': value };
  if (placement === 'x-goog-api-key') return { 'x-goog-api-key': value };
  return { authorization: `Bearer ${value}` };
}

/** Whether `url` is one of the credential's API hosts, over https (or http toward this machine only). */
export function mayCarryCredential(url: URL, credential: Pick<UsableCredential, 'apiDomains'>): boolean {
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url));
  return secure && credential.apiDomains.includes(url.hostname.replace(/^\[|\]$/g, ''));
}

/** One net_fetch that carries a handle: the headers to add per hop, and the signal that ends it with the handle. */
export interface CredentialInjection {
  /** The credential header for a hop toward the provider's API hosts; nothing for any other host. */
  headersFor(url: URL): Record<string, string>;
  /** Aborts when the handle ends (grant revoked or expired, connection disconnected). */
  signal: AbortSignal;
  /** One ledger entry for the use: connection, handle id, method, host, path, status; never headers or bodies. */
  recordUse(use: { method: string; url: URL; status: number | null; error?: string }): void;
}

/** What the WASM sandbox's host calls need (AgentHostCallsOptions.credentials). */
export interface CredentialInjector {
  /**
   * Takes the handle header out of `headers` (always, so it never goes upstream) and, when there was one, checks
   * the handle for this agent and session now. Throws HandleInvalidError for a handle that is unknown, someone
   * else's, or ended.
   */
  prepare(headers: Record<string, string>, who: { agentId: string; sessionId: string }): Promise<CredentialInjection | null>;
  /**
   * The handle for an agent whose omni.consent for `oauth:<provider>.<scope>` was just granted; never throws (the
   * grant stands even when no connection can serve it yet): `handle` null and the reason instead.
   */
  issueHandle(who: { agentId: string; sessionId: string; capability: string }): { handle: string | null; handle_error?: string };
  /**
   * The agent that was issued `handle` has stopped: a handle issued under an "Allow once" ends with it (the grant
   * covered that run only); one under a timed grant lives on with its grant.
   */
  endWithRun(handle: string): void;
}

/**
 * prepare() for a host that may have no injector: the handle header is taken out of the request either way, and a
 * request that carried one without an injector to honour it is refused rather than sent without its credential.
 */
export async function prepareInjection(
  injector: CredentialInjector | undefined,
  headers: Record<string, string>,
  who: { agentId: string; sessionId: string },
): Promise<CredentialInjection | null> {
  if (injector) return injector.prepare(headers, who);
  if (takeHandleHeader(headers) !== null) {
    throw new HandleInvalidError('this host has no credentials configured, so the handle cannot be used', 'carry on without the connection');
  }
  return null;
}

/** The injector over the connections' handles and credentials. */
export class HandleInjector implements CredentialInjector {
  constructor(
    private readonly handles: Pick<CredentialHandles, 'resolve' | 'issue' | 'endWithRun'>,
    private readonly credentialFor: (connectionId: string) => Promise<UsableCredential>,
    private readonly audit: (entry: LedgerAppend) => void,
  ) {}

  issueHandle(who: { agentId: string; sessionId: string; capability: string }): { handle: string | null; handle_error?: string } {
    if (!who.capability.startsWith('oauth:')) return { handle: null };
    try {
      return { handle: this.handles.issue(who).handle };
    } catch (error) {
      const hint = error instanceof HandleInvalidError ? `; ${error.hint}` : '';
      return { handle: null, handle_error: `${(error as Error).message}${hint}` };
    }
  }

  endWithRun(handle: string): void {
    this.handles.endWithRun(handle);
  }

  async prepare(headers: Record<string, string>, who: { agentId: string; sessionId: string }): Promise<CredentialInjection | null> {
    const handle = takeHandleHeader(headers);
    if (handle === null) return null;
    const { record, signal } = this.handles.resolve(handle, who);
    const credential = await this.credentialFor(record.connectionId);
    return {
      signal,
      headersFor: (url) => (mayCarryCredential(url, credential) ? credentialHeader(credential.placement, credential.value.expose()) : {}),
      recordUse: ({ method, url, status, error }) =>
        this.audit({
          type: 'credential.use',
          actor: `agent:${record.agentId}`,
          sessionId: record.sessionId,
          payload: {
            handleId: record.handleId,
            connectionId: record.connectionId,
            method,
            host: url.host,
            path: url.pathname,
            injected: mayCarryCredential(url, credential),
            status,
            error: error ?? null,
          },
        }),
    };
  }
}
