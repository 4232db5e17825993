import type { OAuthClientInfo, SaveOAuthClientRequest } from '../../../src-preload/contract';
import { DomainError } from '../base/domainError';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { changeClientSecret } from './clientSecretChange';
import type { Connections } from './connections';
import type { CredentialVault } from './credentialVault';
import { changesWhereTokensGo, checkOAuthClientSettings, DuplicateProviderError, OAuthClientSettings, providerIdFor } from './oauthClientSettings';
import type { ProviderRegistry } from './providers';

interface Row {
  id: string;
  name: string;
  settings: string;
  has_secret: number;
  created_at: number;
  updated_at: number;
}

export interface OAuthClientsOptions {
  db: Database;
  vault: CredentialVault;
  providers: ProviderRegistry;
  connections: Pick<Connections, 'list' | 'forgetEndpoints'>;
  ledger: Pick<Ledger, 'append' | 'transact'>;
  now?: () => number;
  /** A stored client that no longer applies (say, an id a newer built-in provider took), for the host log. */
  onProblem?: (message: string) => void;
}

/**
 * The OAuth clients the user set up in the Connections view (issue 23), in SQLite (oauth_clients, migration 15) with
 * their secrets in the OS keychain. Each one is a provider in the registry from the moment it is saved: no file to
 * write, no restart. Clients from oauth-providers.json keep working; these are applied after them.
 */
export class OAuthClients {
  private readonly now: () => number;

  constructor(private readonly o: OAuthClientsOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Puts every stored client into the registry (at host start). */
  load(): void {
    for (const row of this.rows()) {
      const settings = OAuthClientSettings.safeParse(JSON.parse(row.settings));
      if (!settings.success) {
        this.o.onProblem?.(`the OAuth client "${row.name}" is stored in a shape this version cannot read; set it up again in Connections`);
        continue;
      }
      try {
        this.apply(row.id, row.name, settings.data);
      } catch (error) {
        this.o.onProblem?.(`the OAuth client "${row.name}" could not be applied: ${(error as Error).message}`);
      }
    }
  }

  list(): OAuthClientInfo[] {
    return this.rows().flatMap((row) => {
      const settings = OAuthClientSettings.safeParse(JSON.parse(row.settings));
      return settings.success ? [this.info(row, settings.data)] : [];
    });
  }

  async save(request: SaveOAuthClientRequest, actor: string): Promise<OAuthClientInfo> {
    const name = request.name.trim();
    const settings = checkOAuthClientSettings({
      issuer: request.issuer,
      endpoints: request.endpoints,
      clientId: request.clientId,
      scopes: request.scopes,
      apiDomains: request.apiDomains,
      apiBaseUrl: request.apiBaseUrl,
      redirectPort: request.redirectPort,
      flows: request.flows,
    });
    const existing = request.id ? this.row(request.id) : undefined;
    if (request.id && !existing) throw new DomainError('not_found', `There is no OAuth client "${request.id}" set up in the app; list them (credentials.oauthClients) and use one of their ids.`);
    const id = existing?.id ?? providerIdFor(name);
    for (const provider of this.o.providers.list()) {
      if (provider.id === id && !existing) throw new DuplicateProviderError(provider.name);
      if (provider.id !== id && provider.name.toLowerCase() === name.toLowerCase()) throw new DuplicateProviderError(provider.name);
    }
    const live = this.liveConnections(id);
    if (existing && live > 0 && changesWhereTokensGo(OAuthClientSettings.parse(JSON.parse(existing.settings)), settings)) {
      throw new DomainError(
        'conflict',
        `${live === 1 ? '1 connection uses' : `${live} connections use`} ${existing.name}: disconnect ${live === 1 ? 'it' : 'them'} before changing where its tokens go (issuer, endpoints, client id, API domains, API base URL).`,
      );
    }
    const hasSecret = await changeClientSecret(this.o.vault, id, request, existing?.has_secret === 1);
    const now = this.now();
    this.o.ledger.transact(() => {
      if (existing) {
        this.o.db.prepare('UPDATE oauth_clients SET name = ?, settings = ?, has_secret = ?, updated_at = ? WHERE id = ?').run(name, JSON.stringify(settings), hasSecret ? 1 : 0, now, id);
      } else {
        this.o.db.prepare('INSERT INTO oauth_clients (id, name, settings, has_secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(id, name, JSON.stringify(settings), hasSecret ? 1 : 0, now, now);
      }
      this.o.ledger.append({
        type: 'credential.client',
        actor,
        payload: { action: existing ? 'edit' : 'add', provider: id, name, issuer: settings.issuer, clientId: settings.clientId, hasClientSecret: hasSecret, apiDomains: settings.apiDomains },
      });
    });
    this.apply(id, name, settings);
    return this.info(this.row(id)!, settings);
  }

  /** Removes a client no connection uses any more; its secret leaves the keychain. */
  async remove(id: string, actor: string): Promise<boolean> {
    const row = this.row(id);
    if (!row) return false;
    const live = this.liveConnections(id);
    if (live > 0) {
      throw new DomainError('conflict', `${live === 1 ? '1 connection uses' : `${live} connections use`} ${row.name}; disconnect ${live === 1 ? 'it' : 'them'} first, then remove the client.`);
    }
    if (row.has_secret === 1) await this.o.vault.deleteClientSecret(id);
    this.o.ledger.transact(() => {
      this.o.db.prepare('DELETE FROM oauth_clients WHERE id = ?').run(id);
      this.o.ledger.append({ type: 'credential.client', actor, payload: { action: 'remove', provider: id, name: row.name } });
    });
    this.o.providers.remove(id);
    this.o.connections.forgetEndpoints(id);
    return true;
  }

  private apply(id: string, name: string, settings: OAuthClientSettings): void {
    this.o.providers.addOidc({
      id,
      name,
      issuer: settings.issuer,
      endpoints: settings.endpoints,
      clientId: settings.clientId,
      readClientSecret: async () => ((this.row(id)?.has_secret ?? 0) === 1 ? this.o.vault.readClientSecret(id) : null),
      apiDomains: settings.apiDomains,
      apiBaseUrl: settings.apiBaseUrl,
      flows: settings.flows,
      redirectPort: settings.redirectPort,
      extraScopes: settings.scopes,
    });
    // Endpoints discovered for the client as it was would otherwise still be used.
    this.o.connections.forgetEndpoints(id);
  }

  /** Connections still listed (connected, failed or revoked): they need the provider to be refreshed or disconnected. */
  private liveConnections(id: string): number {
    return this.o.connections.list().filter((c) => c.provider === id).length;
  }

  private info(row: Row, settings: OAuthClientSettings): OAuthClientInfo {
    return {
      id: row.id,
      name: row.name,
      ...settings,
      hasClientSecret: row.has_secret === 1,
      redirectUri: `http://127.0.0.1${settings.redirectPort ? `:${settings.redirectPort}` : ''}/callback`,
      connections: this.liveConnections(row.id),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  private rows(): Row[] {
    return this.o.db.prepare<[], Row>('SELECT * FROM oauth_clients ORDER BY name COLLATE NOCASE').all();
  }

  private row(id: string): Row | undefined {
    return this.o.db.prepare<[string], Row>('SELECT * FROM oauth_clients WHERE id = ?').get(id);
  }
}
