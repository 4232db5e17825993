import { DisposableStore, type Disposable } from '../../../src-preload/rpc';
import type { HostKeychain } from './hostKeychain';
import { KeychainUnavailableError, type Keychain } from './keychain';
import { Secret } from './secret';
import type { SecretRegistry } from './secretRegistry';
import { VaultUnavailableError } from './vaultErrors';

/** What is stored for a connection: an API key, or OAuth tokens. Every value stays wrapped in a Secret. */
export type Credential =
  | { kind: 'api_key'; apiKey: Secret<string> }
  | { kind: 'oauth'; accessToken: Secret<string>; refreshToken: Secret<string> | null; tokenType: string };

/** The keychain account a connection's credential is filed under. */
export const credentialAccount = (connectionId: string): string => `connection/${connectionId}`;

/** The keychain account an OAuth client's secret is filed under (the registrations map shares its namespace). */
export const clientSecretAccount = (providerId: string): string => `oauth-client/${providerId}`;

interface StoredCredential {
  v: 1;
  kind: 'api_key' | 'oauth';
  api_key?: string;
  access_token?: string;
  refresh_token?: string | null;
  token_type?: string;
}

/**
 * Credentials by connection id, in the OS keychain and nowhere else. Every value stored or read is registered with
 * the secret registry, so the ledger's and the log's scrubber take it out of anything written. Without a keychain
 * every call throws VaultUnavailableError (there is no plaintext fallback), and `available` says so up front.
 */
export class CredentialVault implements Disposable {
  private keychain: Keychain | null = null;
  #problem: string | null = 'the OS keychain is still opening';
  /** The registrations of each connection's current values. */
  private readonly registrations = new Map<string, DisposableStore>();
  /**
   * Values replaced (a rotated key, a refreshed token) or deleted stay registered until the host stops: a key the user
   * rotated because it leaked is still taken out of anything written afterwards.
   */
  private readonly retired = new DisposableStore();
  /**
   * Settles once the keychain has answered (the host opens it asynchronously, openHostKeychain): operations wait
   * for it, so a connect in the first second of a run is not refused for a keychain that was merely slow.
   */
  readonly ready: Promise<void>;

  constructor(
    host: HostKeychain | Promise<HostKeychain>,
    private readonly registry: SecretRegistry,
  ) {
    this.ready = Promise.resolve(host).then(
      (opened) => {
        this.keychain = opened.keychain;
        this.#problem = opened.keychain ? null : (opened.problem ?? 'no keychain is available');
      },
      (error: unknown) => {
        this.#problem = `the OS keychain could not be opened (${(error as Error)?.message ?? String(error)})`;
      },
    );
  }

  /** Whether credentials can be stored now (false while the keychain is still opening). */
  get available(): boolean {
    return this.keychain !== null;
  }

  /** Why there is no keychain; null when there is one. */
  get problem(): string | null {
    return this.#problem;
  }

  async store(connectionId: string, credential: Credential): Promise<void> {
    const keychain = await this.require();
    const stored: StoredCredential =
      credential.kind === 'api_key'
        ? { v: 1, kind: 'api_key', api_key: credential.apiKey.expose() }
        : { v: 1, kind: 'oauth', access_token: credential.accessToken.expose(), refresh_token: credential.refreshToken?.expose() ?? null, token_type: credential.tokenType };
    // Registered before the write: an error from the keychain that quotes what it was given is scrubbed too.
    const registrations = this.register(credential);
    try {
      await this.guard(keychain.set(credentialAccount(connectionId), new Secret(JSON.stringify(stored))));
    } catch (error) {
      registrations.dispose();
      throw error;
    }
    this.retire(connectionId);
    this.registrations.set(connectionId, registrations);
  }

  /** The credential, or null when none is stored (deleted, or removed from the keychain by the user). */
  async read(connectionId: string): Promise<Credential | null> {
    const keychain = await this.require();
    const secret = await this.guard(keychain.get(credentialAccount(connectionId)));
    if (!secret) return null;
    let parsed: StoredCredential;
    try {
      parsed = JSON.parse(secret.expose()) as StoredCredential;
    } catch {
      return null;
    }
    const credential: Credential | null =
      parsed.kind === 'api_key' && typeof parsed.api_key === 'string'
        ? { kind: 'api_key', apiKey: new Secret(parsed.api_key) }
        : parsed.kind === 'oauth' && typeof parsed.access_token === 'string'
          ? {
              kind: 'oauth',
              accessToken: new Secret(parsed.access_token),
              refreshToken: typeof parsed.refresh_token === 'string' ? new Secret(parsed.refresh_token) : null,
              tokenType: parsed.token_type ?? 'bearer',
            }
          : null;
    if (credential && !this.registrations.has(connectionId)) this.registrations.set(connectionId, this.register(credential));
    return credential;
  }

  /** Removes the credential; false when there was none. */
  async delete(connectionId: string): Promise<boolean> {
    const keychain = await this.require();
    const removed = await this.guard(keychain.delete(credentialAccount(connectionId)));
    this.retire(connectionId);
    return removed;
  }

  /**
   * An OAuth client's secret (oauthClients.ts), filed apart from connections' credentials. Registered with the
   * scrubber like every other value the vault holds.
   */
  async storeClientSecret(providerId: string, secret: Secret<string>): Promise<void> {
    const keychain = await this.require();
    const key = clientSecretAccount(providerId);
    const registration = this.registry.register(secret);
    try {
      await this.guard(keychain.set(key, secret));
    } catch (error) {
      registration.dispose();
      throw error;
    }
    this.replaceRegistrations(key, registration);
  }

  async readClientSecret(providerId: string): Promise<Secret<string> | null> {
    const keychain = await this.require();
    const key = clientSecretAccount(providerId);
    const secret = await this.guard(keychain.get(key));
    if (secret && !this.registrations.has(key)) this.replaceRegistrations(key, this.registry.register(secret));
    return secret;
  }

  async deleteClientSecret(providerId: string): Promise<boolean> {
    const keychain = await this.require();
    const key = clientSecretAccount(providerId);
    const removed = await this.guard(keychain.delete(key));
    this.retire(key);
    return removed;
  }

  dispose(): void {
    for (const registrations of this.registrations.values()) registrations.dispose();
    this.registrations.clear();
    this.retired.dispose();
  }

  private async require(): Promise<Keychain> {
    await this.ready;
    if (!this.keychain) throw new VaultUnavailableError(this.#problem ?? 'no keychain is available');
    return this.keychain;
  }

  /** A keychain that stops working later (locked after opening) is reported the same way as one that never did. */
  private async guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (error instanceof KeychainUnavailableError) throw new VaultUnavailableError(error.message, { cause: error });
      throw error;
    }
  }

  /** The key's current values become retired ones: still scrubbed, no longer the key's. */
  private retire(key: string): void {
    const current = this.registrations.get(key);
    if (!current) return;
    this.registrations.delete(key);
    this.retired.add(current);
  }

  private replaceRegistrations(key: string, registration: Disposable): void {
    this.retire(key);
    const store = new DisposableStore();
    store.add(registration);
    this.registrations.set(key, store);
  }

  private register(credential: Credential): DisposableStore {
    const store = new DisposableStore();
    const values = credential.kind === 'api_key' ? [credential.apiKey] : [credential.accessToken, credential.refreshToken];
    for (const value of values) if (value) store.add(this.registry.register(value));
    return store;
  }
}
