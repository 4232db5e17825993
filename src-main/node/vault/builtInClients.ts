import type { BuiltInClientInfo, ConfigureBuiltInClientRequest } from '../../../src-preload/contract';
import { DomainError, invalidField } from '../base/domainError';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { changeClientSecret } from './clientSecretChange';
import type { Connections } from './connections';
import type { CredentialVault } from './credentialVault';
import type { ProviderRegistry } from './providers';

interface Row {
  provider: string;
  client_id: string;
  has_secret: number;
  updated_at: number;
}

export interface BuiltInClientsOptions {
  db: Database;
  vault: CredentialVault;
  providers: ProviderRegistry;
  connections: Pick<Connections, 'list'>;
  ledger: Pick<Ledger, 'append' | 'transact'>;
  now?: () => number;
  /** A stored client that no longer applies (its provider left the app), for the host log. */
  onProblem?: (message: string) => void;
}

const MAX_CLIENT_ID = 512;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The keychain account of a built-in provider's client secret. A ":" can never be in a provider id, so no OAuth client
 * set up by name (whose id is a slug of it, oauthClients.ts) can share, read or overwrite this account.
 */
export const builtInSecretAccountId = (providerId: string): string => `builtin:${providerId}`;

/**
 * The client ids of the built-in OAuth providers (GitHub, Google) set in the Connections view (issue 23), in SQLite
 * (builtin_oauth_clients, migration 16) with any client secret in the OS keychain. Saved, a provider can be connected
 * at once: no oauth-providers.json to write, no restart. Loaded after that file, so what the user last set wins.
 */
export class BuiltInClients {
  private readonly now: () => number;

  constructor(private readonly o: BuiltInClientsOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Puts every stored client id into the registry (at host start). */
  load(): void {
    for (const row of this.rows()) {
      try {
        this.apply(row.provider, row.client_id);
      } catch (error) {
        this.o.onProblem?.(`the client id set in the app for "${row.provider}" could not be applied: ${(error as Error).message}`);
      }
    }
  }

  async save(request: ConfigureBuiltInClientRequest, actor: string): Promise<BuiltInClientInfo> {
    const provider = this.o.providers.get(request.provider);
    if (provider.kind !== 'oauth') throw invalidField('provider', `${provider.name} is connected with an API key; it has no OAuth client id to set`);
    if (!this.o.providers.isBuiltInOAuth(provider.id)) {
      throw invalidField('provider', `${provider.name} is an OAuth client set up in the app; edit it under OAuth clients instead`);
    }
    const clientId = checkClientId(request.clientId);
    const live = this.o.connections.list().filter((c) => c.provider === provider.id).length;
    if (live > 0 && provider.clientId !== null && provider.clientId !== clientId) {
      throw new DomainError(
        'conflict',
        `${live === 1 ? '1 connection uses' : `${live} connections use`} ${provider.name}: disconnect ${live === 1 ? 'it' : 'them'} first, then change its client id (its tokens belong to the client id they were issued to).`,
      );
    }
    const existing = this.row(provider.id);
    const account = builtInSecretAccountId(provider.id);
    const hasSecret = await changeClientSecret(this.o.vault, account, request, existing?.has_secret === 1);
    const now = this.now();
    this.o.ledger.transact(() => {
      this.o.db
        .prepare('INSERT INTO builtin_oauth_clients (provider, client_id, has_secret, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(provider) DO UPDATE SET client_id = excluded.client_id, has_secret = excluded.has_secret, updated_at = excluded.updated_at')
        .run(provider.id, clientId, hasSecret ? 1 : 0, now);
      this.o.ledger.append({ type: 'credential.client', actor, payload: { action: 'configure-builtin', provider: provider.id, clientId, hasClientSecret: hasSecret } });
    });
    this.apply(provider.id, clientId);
    return { provider: provider.id, name: provider.name, clientId, hasClientSecret: hasSecret, redirectUri: 'http://127.0.0.1/callback', updatedAt: now };
  }

  private apply(providerId: string, clientId: string): void {
    const account = builtInSecretAccountId(providerId);
    this.o.providers.configureClient(providerId, {
      clientId,
      readClientSecret: async () => ((this.row(providerId)?.has_secret ?? 0) === 1 ? this.o.vault.readClientSecret(account) : null),
    });
  }

  private rows(): Row[] {
    return this.o.db.prepare<[], Row>('SELECT * FROM builtin_oauth_clients ORDER BY provider').all();
  }

  private row(providerId: string): Row | undefined {
    return this.o.db.prepare<[string], Row>('SELECT * FROM builtin_oauth_clients WHERE provider = ?').get(providerId);
  }
}

/** The same rules as the contract's schema, for callers inside the host (and so the store never holds a bad id). */
function checkClientId(raw: string): string {
  const clientId = raw.trim();
  if (!clientId) throw invalidField('clientId', 'the client id is empty; copy it from the app you registered with the provider');
  if (clientId.length > MAX_CLIENT_ID) throw invalidField('clientId', `a client id is at most ${MAX_CLIENT_ID} characters (this one has ${clientId.length})`);
  if (CONTROL.test(clientId)) throw invalidField('clientId', 'a client id has no control characters (tabs, line breaks); copy only the id');
  return clientId;
}
