import { randomBytes } from 'node:crypto';
import type * as oauth from 'oauth4webapi';
import { DisposableStore, Emitter, type Disposable } from '../../../src-preload/rpc';
import type { ConsentEngine } from '../consent/consentEngine';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { resolveEndpoints, type OAuthEndpoints } from './authorizationServer';
import { ConnectionStore, type Connection } from './connectionStore';
import type { ConnectionView, DeviceFlowStarted, DisconnectResult, PkceFlowStarted, ProviderInfo, UsableCredential, VaultStatus } from './connectionTypes';
import { ConnectionUpkeep } from './connectionUpkeep';
import { CredentialHandles } from './credentialHandles';
import type { CredentialVault } from './credentialVault';
import { API_KEY_SCOPE, type OAuthProvider, type Provider, type ProviderRegistry } from './providers';
import { Secret } from './secret';
import { checkSecureUrl } from './secureUrl';
import type { SecretScrubber } from './secretScrubber';
import { SignInFlows, type SignInKind, type SignInRequest } from './signInFlows';
import { refreshTokens, revokeToken } from './tokenGrants';
import { ConnectionNotFoundError, CredentialRequestError, VaultUnavailableError, type OAuthFlowError } from './vaultErrors';

export type { Connection } from './connectionStore';
export type { ConnectionView, DeviceFlowStarted, DisconnectResult, FlowEvent, PkceFlowStarted, ProviderInfo, UsableCredential, VaultStatus } from './connectionTypes';

export interface ConnectionsOptions {
  db: Database;
  ledger: Pick<Ledger, 'append' | 'transact'>;
  vault: CredentialVault;
  providers: ProviderRegistry;
  consent: Pick<ConsentEngine, 'claim' | 'authorizeHeld' | 'release' | 'onDidRevoke'>;
  now?: () => number;
  /** How long a browser sign-in may take before its loopback listener gives up. Default 10 min. */
  pkceTimeoutMs?: number;
  /** Refresh an access token this long before it runs out. Default 60 s. */
  refreshMarginMs?: number;
  /** Scrubs the free text stored with a connection (its label): the host's, over the vault's registry. Default: token shapes only. */
  scrubber?: SecretScrubber;
}

const USER = 'user';

/**
 * The credentials backend the host exposes (issue 6): connections to providers (API keys; OAuth by device flow or
 * authorization code + PKCE), their metadata in SQLite and their secrets in the OS keychain only, refresh with
 * rotation, disconnect with RFC 7009 revocation, and the handles agents use instead of tokens. Every connect,
 * refresh, handle issue, use, revocation and failure is a ledger entry (never with a secret in it).
 */
export class Connections implements Disposable {
  private readonly owner = new DisposableStore();
  private readonly store: ConnectionStore;
  private readonly now: () => number;
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly endpoints = new Map<string, Promise<OAuthEndpoints>>();
  private readonly changed = this.owner.add(new Emitter<Connection>());
  /** A connection was added, refreshed, failed, revoked or disconnected. */
  readonly onDidChange = this.changed.event;
  private readonly signIns: SignInFlows;
  /** Progress of device and browser flows. */
  readonly onDidProgressFlow: SignInFlows['onDidProgress'];
  readonly handles: CredentialHandles;
  /** The last 4 characters of a key, Test, and Rotate (connectionUpkeep.ts). */
  readonly upkeep: ConnectionUpkeep;

  constructor(private readonly o: ConnectionsOptions) {
    this.store = new ConnectionStore(o.db, o.scrubber);
    this.now = o.now ?? Date.now;
    this.handles = this.owner.add(
      new CredentialHandles({ consent: o.consent, audit: (entry) => o.ledger.append(entry), findConnection: (provider, scope) => this.findConnection(provider, scope), now: this.now }),
    );
    this.signIns = this.owner.add(
      new SignInFlows({
        now: this.now,
        pkceTimeoutMs: o.pkceTimeoutMs ?? 10 * 60_000,
        oauthProvider: (id, flow, actor) => this.oauthProvider(id, flow, actor),
        endpointsFor: (provider, actor) => this.endpointsFor(provider, actor),
        connect: (provider, answer, request, flow, actor) => this.connectTokens(provider, answer, request, flow, actor),
        recordFailure: (provider, step, reason, message, actor) => this.recordFailure(provider, step, reason, message, actor),
      }),
    );
    this.onDidProgressFlow = this.signIns.onDidProgress;
    this.upkeep = new ConnectionUpkeep({
      get: (id) => this.get(id),
      vault: o.vault,
      providers: o.providers,
      ledger: o.ledger,
      markKeyReplaced: (id, now) => this.store.markKeyReplaced(id, now),
      changed: (id) => this.changed.fire(this.get(id)),
      refresh: (id, actor) => this.refresh(id, actor),
      credentialFor: (id) => this.credentialFor(id),
      requireVault: (provider, actor) => this.requireVault(provider, actor),
      now: this.now,
    });
  }

  /** Forgets a provider's discovered endpoints: its OAuth client was edited or removed (oauthClients.ts). */
  forgetEndpoints(providerId: string): void {
    for (const key of this.endpoints.keys()) if (key.startsWith(`${providerId}\u0000`)) this.endpoints.delete(key);
  }

  status(): VaultStatus {
    return { available: this.o.vault.available, problem: this.o.vault.problem };
  }

  providers(): ProviderInfo[] {
    return this.o.providers.list().map((p) => ({
      id: p.id,
      name: p.name,
      kind: p.kind,
      flows: p.kind === 'oauth' && p.clientId ? [...p.flows] : [],
      needsBaseUrl: p.kind === 'api_key' && p.apiBaseUrl === null,
      configured: p.kind === 'api_key' || p.clientId !== null,
    }));
  }

  list(options: { includeDisconnected?: boolean } = {}): ConnectionView[] {
    return this.store.list(options.includeDisconnected).map((c) => ({ ...c, handles: this.handles.list(c.id) }));
  }

  get(connectionId: string): Connection {
    const connection = this.store.get(connectionId);
    if (!connection) throw new ConnectionNotFoundError(connectionId);
    return connection;
  }

  /** Stores an API key (Anthropic, OpenAI, or an OpenAI-compatible endpoint with its base URL). */
  async addApiKey(input: { provider: string; apiKey: Secret<string>; label?: string; baseUrl?: string }, actor = USER): Promise<Connection> {
    const provider = this.o.providers.get(input.provider);
    if (provider.kind !== 'api_key') throw new CredentialRequestError(`${provider.name} connects through OAuth (device flow or browser), not with a pasted key`);
    if (!(input.apiKey instanceof Secret)) throw new CredentialRequestError('the API key must be wrapped in a Secret');
    const key = input.apiKey.expose().trim();
    if (key.length < 8 || /\s/.test(key)) throw new CredentialRequestError('that does not look like an API key (at least 8 characters, no spaces); paste the whole key');
    let baseUrl: string | null = null;
    if (provider.apiBaseUrl === null) {
      baseUrl = checkBaseUrl(input.baseUrl);
    } else if (input.baseUrl !== undefined) {
      throw new CredentialRequestError(`${provider.name} has a fixed API address; a base URL is only for OpenAI-compatible endpoints`);
    }
    await this.requireVault(provider, actor);
    return this.connect(provider, { kind: 'api_key', apiKey: new Secret(key) }, { scopes: [API_KEY_SCOPE], expiresAt: null, baseUrl, label: input.label, flow: 'api_key' }, actor);
  }

  /** RFC 8628: returns the code to show; progress and the result come as flow events (and flowResult). */
  startDeviceFlow(input: SignInRequest, actor = USER): Promise<DeviceFlowStarted> {
    return this.signIns.startDeviceFlow(input, actor);
  }

  /** RFC 8252 + PKCE: returns the URL to open in the system browser; the loopback listener waits for its answer. */
  startPkce(input: SignInRequest, actor = USER): Promise<PkceFlowStarted> {
    return this.signIns.startPkce(input, actor);
  }

  /** The connection a flow ends in (in-process callers and tests; the view listens to onDidProgressFlow). */
  flowResult(flowId: string): Promise<Connection> {
    return this.signIns.result(flowId);
  }

  /** Stops a device flow's polling or a browser flow's listener. False when it had already ended. */
  cancelFlow(flowId: string): boolean {
    return this.signIns.cancel(flowId);
  }

  /**
   * Refreshes the access token now (rotation: the new refresh token replaces the old one in the keychain before the
   * connection is used again). A refused refresh token marks the connection revoked and ends its handles.
   */
  async refresh(connectionId: string, actor = USER): Promise<Connection> {
    await this.refreshOnce(connectionId, actor);
    return this.get(connectionId);
  }

  /** Ends a connection: its handles at once, its tokens at the provider (RFC 7009), its credential in the keychain. */
  async disconnect(connectionId: string, actor = USER): Promise<DisconnectResult> {
    const connection = this.get(connectionId);
    const handlesEnded = this.handles.invalidateConnection(connectionId, 'the connection was disconnected');
    let revokedAtProvider = false;
    let providerError: string | null = null;
    const provider = this.o.providers.get(connection.provider);
    await this.o.vault.ready;
    const credential = this.o.vault.available ? await this.o.vault.read(connectionId) : null;
    if (credential?.kind === 'oauth' && provider.kind === 'oauth') {
      try {
        const endpoints = await this.endpointsFor(provider, actor);
        // The refresh token first: revoking it ends the grant (and, at most providers, its access tokens).
        if (credential.refreshToken) revokedAtProvider = await revokeToken(endpoints, credential.refreshToken.expose(), 'refresh_token');
        revokedAtProvider = (await revokeToken(endpoints, credential.accessToken.expose(), 'access_token')) || revokedAtProvider;
      } catch (error) {
        providerError = (error as Error).message;
      }
    }
    if (this.o.vault.available) await this.o.vault.delete(connectionId);
    const reason = providerError ? `disconnected; revoking at ${provider.name} failed (${providerError})` : 'disconnected';
    this.o.ledger.transact(() => {
      this.store.setStatus(connectionId, 'disconnected', reason, this.now());
      this.o.ledger.append({
        type: 'credential.revoke',
        actor,
        payload: { connectionId, provider: connection.provider, revokedAtProvider, providerError, handlesEnded, localCredentialDeleted: this.o.vault.available },
      });
    });
    const ended = this.get(connectionId);
    this.changed.fire(ended);
    return { connection: ended, revokedAtProvider, providerError, handlesEnded };
  }

  /**
   * The credential of a connection for one use, refreshed first when it is about to run out. Throws when the
   * connection is not usable (disconnected, revoked, failed) or the keychain is gone.
   */
  async credentialFor(connectionId: string): Promise<UsableCredential> {
    let connection = this.get(connectionId);
    const margin = this.o.refreshMarginMs ?? 60_000;
    if (connection.status === 'connected' && connection.kind === 'oauth' && connection.expiresAt !== null && connection.expiresAt - margin <= this.now()) {
      await this.refreshOnce(connectionId, 'host');
      connection = this.get(connectionId);
    }
    if (connection.status !== 'connected') throw new CredentialRequestError(`the ${connection.provider} connection is ${connection.status}${connection.statusReason ? ` (${connection.statusReason})` : ''}`);
    const credential = await this.o.vault.read(connectionId);
    if (!credential) {
      this.setStatus(connection, 'failed', 'its credential is missing from the OS keychain (removed outside the app); connect again', 'host');
      throw new CredentialRequestError(`the ${connection.provider} credential is missing from the keychain; connect again`);
    }
    const provider = this.o.providers.get(connection.provider);
    const base = connection.baseUrl ?? provider.apiBaseUrl;
    return {
      connectionId,
      placement: provider.placement,
      value: credential.kind === 'api_key' ? credential.apiKey : credential.accessToken,
      apiDomains: connection.baseUrl ? [new URL(connection.baseUrl).hostname] : provider.apiDomains,
      apiBaseUrl: base,
    };
  }

  dispose(): void {
    this.owner.dispose();
  }

  // ---------------------------------------------------------------------------------------------------------------

  /** The newest working connection to `provider` holding `scope`. */
  private findConnection(providerId: string, scope: string): Connection | null {
    let provider: Provider;
    try {
      provider = this.o.providers.get(providerId);
    } catch {
      return null;
    }
    const names = new Set([scope, provider.kind === 'oauth' ? (provider.scopeName?.(scope) ?? scope) : scope]);
    return this.store.list().find((c) => c.provider === providerId && c.status === 'connected' && c.scopes.some((s) => names.has(s))) ?? null;
  }

  private async oauthProvider(id: string, flow: SignInKind, actor: string): Promise<OAuthProvider> {
    const provider = this.o.providers.getOAuth(id);
    if (!provider.flows.includes(flow)) throw new CredentialRequestError(`${provider.name} does not offer the ${flow === 'device' ? 'device flow' : 'browser sign-in'}`);
    await this.requireVault(provider, actor);
    return provider;
  }

  /** Before anything is asked of a provider: without a keychain, the tokens would have nowhere safe to go. */
  private async requireVault(provider: Provider, actor: string): Promise<void> {
    await this.o.vault.ready;
    if (this.o.vault.available) return;
    const error = new VaultUnavailableError(this.o.vault.problem ?? 'no keychain is available');
    this.recordFailure(provider.id, 'connect', 'vault_unavailable', error.message, actor);
    throw error;
  }

  private endpointsFor(provider: OAuthProvider, actor: string): Promise<OAuthEndpoints> {
    const key = `${provider.id}\u0000${provider.clientId}`;
    let found = this.endpoints.get(key);
    if (!found) {
      found = resolveEndpoints(provider);
      this.endpoints.set(key, found);
      // A failed discovery is not remembered: the next attempt asks again.
      found.catch((error: unknown) => {
        this.endpoints.delete(key);
        this.recordFailure(provider.id, 'discovery', 'discovery_failed', (error as Error).message, actor);
      });
    }
    return found;
  }

  /** What a finished sign-in got, stored as a connection. */
  private connectTokens(provider: OAuthProvider, answer: oauth.TokenEndpointResponse, request: SignInRequest, flow: SignInKind, actor: string): Promise<Connection> {
    return this.connect(
      provider,
      { kind: 'oauth', accessToken: new Secret(answer.access_token), refreshToken: answer.refresh_token ? new Secret(answer.refresh_token) : null, tokenType: answer.token_type },
      { scopes: grantedScopes(answer, provider, request.scopes), expiresAt: expiryOf(answer, this.now()), baseUrl: null, label: request.label, flow },
      actor,
    );
  }

  /** Keychain first: when it fails, no row and no ledger entry claim a connection exists. */
  private async connect(
    provider: Provider,
    credential: Parameters<CredentialVault['store']>[1],
    meta: { scopes: string[]; expiresAt: number | null; baseUrl: string | null; label?: string; flow: string },
    actor: string,
  ): Promise<Connection> {
    const now = this.now();
    const connection: Connection = {
      id: newId('conn'),
      provider: provider.id,
      kind: provider.kind,
      label: meta.label?.trim() || provider.name,
      scopes: meta.scopes,
      baseUrl: meta.baseUrl,
      status: 'connected',
      statusReason: null,
      expiresAt: meta.expiresAt,
      createdAt: now,
      updatedAt: now,
      refreshedAt: null,
    };
    try {
      await this.o.vault.store(connection.id, credential);
    } catch (error) {
      this.recordFailure(provider.id, 'store', error instanceof VaultUnavailableError ? 'vault_unavailable' : 'store_failed', (error as Error).message, actor);
      throw error;
    }
    let stored = connection;
    this.o.ledger.transact(() => {
      stored = this.store.insert(connection);
      this.o.ledger.append({
        type: 'credential.connect',
        actor,
        payload: { connectionId: connection.id, provider: provider.id, kind: provider.kind, flow: meta.flow, scopes: connection.scopes, expiresAt: connection.expiresAt, baseUrl: connection.baseUrl },
      });
    });
    this.changed.fire(stored);
    return stored;
  }

  /** One refresh per connection at a time: two at once would present the same rotated token twice. */
  private refreshOnce(connectionId: string, actor: string): Promise<void> {
    let running = this.refreshing.get(connectionId);
    if (!running) {
      running = this.doRefresh(connectionId, actor).finally(() => this.refreshing.delete(connectionId));
      this.refreshing.set(connectionId, running);
    }
    return running;
  }

  private async doRefresh(connectionId: string, actor: string): Promise<void> {
    const connection = this.get(connectionId);
    const provider = this.o.providers.get(connection.provider);
    if (provider.kind !== 'oauth' || connection.kind !== 'oauth') throw new CredentialRequestError('an API key has nothing to refresh');
    if (connection.status !== 'connected') throw new CredentialRequestError(`the connection is ${connection.status}; connect again`);
    const credential = await this.o.vault.read(connectionId);
    if (credential?.kind !== 'oauth' || !credential.refreshToken) {
      throw new CredentialRequestError(`${provider.name} gave this connection no refresh token; connect again when the access token runs out`);
    }
    const endpoints = await this.endpointsFor(provider, actor);
    let answer: oauth.TokenEndpointResponse;
    try {
      answer = await refreshTokens(endpoints, credential.refreshToken.expose());
    } catch (error) {
      const flowError = error as OAuthFlowError;
      if (flowError.reason === 'invalid_grant') {
        // With rotation, a refused refresh token most often means an old one of its family was presented again
        // (a copy used elsewhere) and the provider revoked the whole grant, or the user revoked the app there.
        const why =
          `${provider.name} refused the refresh token (${flowError.message}). The grant was revoked at ${provider.name}: either the user revoked it there, ` +
          'or an earlier refresh token of this connection was used again (a leaked copy), which makes the provider revoke them all. Connect again.';
        this.setStatus(connection, 'revoked', why, actor);
        this.handles.invalidateConnection(connectionId, why);
        this.recordFailure(provider.id, 'refresh', 'invalid_grant', why, actor, connectionId);
      } else {
        this.recordFailure(provider.id, 'refresh', flowError.reason ?? 'failed', flowError.message, actor, connectionId);
      }
      throw error;
    }
    const rotated = Boolean(answer.refresh_token && answer.refresh_token !== credential.refreshToken.expose());
    await this.o.vault.store(connectionId, {
      kind: 'oauth',
      accessToken: new Secret(answer.access_token),
      refreshToken: answer.refresh_token ? new Secret(answer.refresh_token) : credential.refreshToken,
      tokenType: answer.token_type,
    });
    const now = this.now();
    const expiresAt = expiryOf(answer, now);
    this.o.ledger.transact(() => {
      this.store.markRefreshed(connectionId, expiresAt, answer.scope ? answer.scope.split(' ') : null, now);
      this.o.ledger.append({ type: 'credential.refresh', actor, payload: { connectionId, provider: provider.id, rotated, expiresAt } });
    });
    this.changed.fire(this.get(connectionId));
  }

  private setStatus(connection: Connection, status: Connection['status'], reason: string, _actor: string): void {
    this.store.setStatus(connection.id, status, reason, this.now());
    this.changed.fire(this.get(connection.id));
  }

  private recordFailure(provider: string, step: string, reason: string, message: string, actor: string, connectionId: string | null = null): void {
    this.o.ledger.append({ type: 'credential.fail', actor, payload: { provider, step, reason, message, connectionId } });
  }
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}

function expiryOf(answer: oauth.TokenEndpointResponse, now: number): number | null {
  return typeof answer.expires_in === 'number' ? now + answer.expires_in * 1000 : null;
}

/** The scopes the provider says it granted (it may grant fewer than asked); else the ones asked for. */
function grantedScopes(answer: oauth.TokenEndpointResponse, provider: OAuthProvider, asked: string[]): string[] {
  if (typeof answer.scope === 'string' && answer.scope.trim()) return answer.scope.trim().split(/\s+/);
  return asked.map((scope) => provider.scopeName?.(scope) ?? scope);
}

function checkBaseUrl(value: string | undefined): string {
  if (!value) throw new CredentialRequestError('an OpenAI-compatible endpoint needs its base URL, e.g. http://127.0.0.1:11434/v1 for a local Ollama');
  return checkSecureUrl(value, 'the base URL', 'https://llm.example.com/v1').href.replace(/\/$/, '');
}
