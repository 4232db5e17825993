import type { Ledger } from '../ledger/ledger';
import type { Connection } from './connectionStore';
import type { UsableCredential } from './connectionTypes';
import type { CredentialVault } from './credentialVault';
import { credentialHeader, mayCarryCredential } from './handleInjection';
import { keyHint } from './keyHint';
import type { Provider, ProviderRegistry } from './providers';
import { Secret } from './secret';
import { CredentialRequestError, OAuthFlowError } from './vaultErrors';

/** How a Test went: `untestable` says what could not be checked and why (no refresh token, no test request). */
export interface ConnectionCheck {
  connectionId: string;
  outcome: 'ok' | 'failed' | 'untestable';
  /** token_refresh: OAuth, the provider issued new tokens; test_request: an API key listed the models. */
  method: 'token_refresh' | 'test_request' | 'none';
  /** What happened, in words the user can act on; never any part of the credential. */
  message: string;
  checkedAt: number;
  durationMs: number;
}

export interface ConnectionUpkeepOptions {
  get(connectionId: string): Connection;
  vault: CredentialVault;
  providers: ProviderRegistry;
  ledger: Pick<Ledger, 'append' | 'transact'>;
  /** Marks the connection working again in SQLite (a replaced key), inside the ledger's transaction. */
  markKeyReplaced(connectionId: string, now: number): void;
  /** Tells the live list the connection changed. */
  changed(connectionId: string): void;
  refresh(connectionId: string, actor: string): Promise<Connection>;
  credentialFor(connectionId: string): Promise<UsableCredential>;
  requireVault(provider: Provider, actor: string): Promise<void>;
  now: () => number;
  /** How long the Test request may take. Default 10 s. */
  testTimeoutMs?: number;
}

/**
 * What the user does to a connection after making it (issue 23): see which key it holds by its last 4 characters,
 * Test that the credential still works, and Rotate an API key in place. None of these hands the credential to anyone:
 * the hint is 4 characters read from the keychain when asked, the test request goes only to the provider's own API
 * hosts, and the ledger records that it happened, never the value.
 */
export class ConnectionUpkeep {
  constructor(private readonly o: ConnectionUpkeepOptions) {}

  /** "…abcd" for an API key of 12 characters or more; null for OAuth tokens, short keys and a key missing from the keychain. */
  async keyHint(connectionId: string): Promise<string | null> {
    const connection = this.o.get(connectionId);
    if (connection.kind !== 'api_key' || connection.status === 'disconnected' || !this.o.vault.available) return null;
    const credential = await this.o.vault.read(connectionId);
    return credential?.kind === 'api_key' ? keyHint(credential.apiKey.expose()) : null;
  }

  /**
   * Replaces an API key's value in the keychain, under the same connection id: agents' handles and grants to the
   * connection keep working and use the new key from their next request. The old value is overwritten, not kept.
   */
  async rotateApiKey(connectionId: string, apiKey: Secret<string>, actor: string): Promise<Connection> {
    const connection = this.o.get(connectionId);
    const provider = this.o.providers.get(connection.provider);
    if (connection.kind !== 'api_key') throw new CredentialRequestError(`${connection.label} is an OAuth connection: its tokens are replaced by Refresh, not by pasting a key`);
    if (connection.status === 'disconnected' || connection.status === 'revoked') {
      throw new CredentialRequestError(`${connection.label} is ${connection.status}; add the new key as a new connection instead`);
    }
    if (!(apiKey instanceof Secret)) throw new CredentialRequestError('the API key must be wrapped in a Secret');
    const key = apiKey.expose().trim();
    if (!key) throw new CredentialRequestError('the new API key is empty; paste the whole new key');
    if (key.length < 8 || /\s/.test(key)) throw new CredentialRequestError('that does not look like an API key (at least 8 characters, no spaces); paste the whole new key');
    await this.o.requireVault(provider, actor);
    const old = await this.o.vault.read(connectionId);
    if (old?.kind === 'api_key' && old.apiKey.expose() === key) throw new CredentialRequestError('that is the key already stored; paste the new key');
    // One keychain entry per connection: storing replaces the old value in place, nothing of it stays behind.
    await this.o.vault.store(connectionId, { kind: 'api_key', apiKey: new Secret(key) });
    const now = this.o.now();
    this.o.ledger.transact(() => {
      this.o.markKeyReplaced(connectionId, now);
      this.o.ledger.append({ type: 'credential.rotate', actor, payload: { connectionId, provider: provider.id, kind: 'api_key' } });
    });
    this.o.changed(connectionId);
    return this.o.get(connectionId);
  }

  /** Checks the credential works, without showing it: a token refresh for OAuth, the provider's test request for a key. */
  async check(connectionId: string, actor: string): Promise<ConnectionCheck> {
    const connection = this.o.get(connectionId);
    const provider = this.o.providers.get(connection.provider);
    const started = this.o.now();
    const result = await this.run(connection, provider, actor).catch((error: unknown) => ({
      outcome: 'failed' as const,
      method: connection.kind === 'oauth' ? ('token_refresh' as const) : ('test_request' as const),
      message: failureText(provider, error),
    }));
    const checkedAt = this.o.now();
    this.o.ledger.append({
      type: 'credential.test',
      actor,
      payload: { connectionId, provider: provider.id, method: result.method, outcome: result.outcome, message: result.message },
    });
    return { connectionId, ...result, checkedAt, durationMs: checkedAt - started };
  }

  private async run(connection: Connection, provider: Provider, actor: string): Promise<Omit<ConnectionCheck, 'connectionId' | 'checkedAt' | 'durationMs'>> {
    if (connection.status !== 'connected') {
      return { outcome: 'failed', method: 'none', message: `The connection is ${connection.status}${connection.statusReason ? `: ${connection.statusReason}` : ''}. Connect again.` };
    }
    if (connection.kind === 'oauth') {
      const credential = await this.o.vault.read(connection.id);
      if (credential?.kind === 'oauth' && !credential.refreshToken) {
        return {
          outcome: 'untestable',
          method: 'none',
          message: `${provider.name} gave this connection no refresh token, so it cannot be checked without using the access token at its API; it works until it expires.`,
        };
      }
      const refreshed = await this.o.refresh(connection.id, actor);
      const until = refreshed.expiresAt === null ? '' : ` (valid until ${new Date(refreshed.expiresAt).toISOString().slice(11, 16)} UTC)`;
      return { outcome: 'ok', method: 'token_refresh', message: `${provider.name} accepted the refresh token and issued a new access token${until}.` };
    }
    if (provider.kind !== 'api_key' || !provider.testRequest) {
      return { outcome: 'untestable', method: 'none', message: `${provider.name} has no test request, so the key cannot be checked short of an agent using it.` };
    }
    const credential = await this.o.credentialFor(connection.id);
    const url = new URL(`${(credential.apiBaseUrl ?? '').replace(/\/$/, '')}${provider.testRequest.path}`);
    if (!mayCarryCredential(url, credential)) {
      return { outcome: 'untestable', method: 'none', message: `The test address ${url.origin} is not one of the hosts this key may be sent to, so it was not sent.` };
    }
    const response = await fetch(url, {
      method: 'GET',
      headers: { ...provider.testRequest.headers, ...credentialHeader(credential.placement, credential.value.expose()) },
      redirect: 'manual',
      signal: AbortSignal.timeout(this.o.testTimeoutMs ?? 10_000),
    });
    // The body is not read: an error answer may quote part of the key.
    await response.body?.cancel();
    if (response.ok) return { outcome: 'ok', method: 'test_request', message: `${provider.name} accepted the key (GET ${url.pathname} answered ${response.status}).` };
    if (response.status === 401 || response.status === 403) {
      return { outcome: 'failed', method: 'test_request', message: `${provider.name} refused the key (HTTP ${response.status}): it was revoked or mistyped. Rotate it with a working key.` };
    }
    return { outcome: 'failed', method: 'test_request', message: `${provider.name} answered HTTP ${response.status} to GET ${url.pathname}, so the key could not be confirmed; try again later.` };
  }
}

/** Why a check failed, without internals: the backend's own errors already say what to do. */
function failureText(provider: Provider, error: unknown): string {
  if (error instanceof OAuthFlowError && error.reason === 'invalid_grant') {
    return `${provider.name} no longer accepts this connection's refresh token: access was revoked at ${provider.name} (or the token ran out). Connect again.`;
  }
  if ((error as Error)?.name === 'TimeoutError') return `${provider.name} did not answer within the time allowed; check the network and try again.`;
  if (error instanceof TypeError) return `${provider.name} could not be reached (${(error.cause as Error | undefined)?.message ?? error.message}); check the address and the network.`;
  return (error as Error)?.message ?? String(error);
}
