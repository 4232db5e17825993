import { DisposableStore, type Disposable } from '../../../src-preload/rpc';
import type { ConsentEngine } from '../consent/consentEngine';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { Connections } from './connections';
import { BuiltInClients } from './builtInClients';
import { CredentialProxy } from './credentialProxy';
import { CredentialVault } from './credentialVault';
import { HandleInjector, type CredentialInjector } from './handleInjection';
import type { HostKeychain } from './hostKeychain';
import { OAuthClients } from './oauthClients';
import { ProviderRegistry } from './providers';
import type { SecretRegistry } from './secretRegistry';
import { SecretScrubber } from './secretScrubber';

export interface CredentialServicesOptions {
  db: Database;
  ledger: Ledger;
  /**
   * The host's keychain, or the promise of it (the host's keychain promise: operations wait for it); without one,
   * credential features report themselves off.
   */
  keychain: HostKeychain | Promise<HostKeychain>;
  /** The registry the ledger's and the log's scrubber read: every credential the vault holds is registered there. */
  secrets: SecretRegistry;
  consent: ConsentEngine;
  providers?: ProviderRegistry;
}

/**
 * The credentials backend composed for the host (hostServices.ts): the vault over the keychain, the provider
 * registry, the Connections service (the API the Connections view and the contract expose), the injector the WASM
 * sandbox takes (WasmSandboxOptions.credentials), and the local proxy for native agents, started on first use.
 */
export class CredentialServices implements Disposable {
  private readonly owner = new DisposableStore();
  readonly vault: CredentialVault;
  readonly providers: ProviderRegistry;
  readonly connections: Connections;
  readonly injector: CredentialInjector;
  /** The OAuth clients set up in the Connections view (load() applies them to the provider registry). */
  readonly oauthClients: OAuthClients;
  /** The client ids of GitHub and Google set in the Connections view (load() applies them). */
  readonly builtInClients: BuiltInClients;
  private proxy: Promise<CredentialProxy> | undefined;
  private disposed = false;

  constructor(private readonly o: CredentialServicesOptions) {
    this.vault = this.owner.add(new CredentialVault(o.keychain, o.secrets));
    this.providers = o.providers ?? new ProviderRegistry();
    this.connections = this.owner.add(new Connections({ db: o.db, ledger: o.ledger, vault: this.vault, providers: this.providers, consent: o.consent, scrubber: new SecretScrubber(o.secrets) }));
    this.oauthClients = new OAuthClients({ db: o.db, vault: this.vault, providers: this.providers, connections: this.connections, ledger: o.ledger });
    this.builtInClients = new BuiltInClients({ db: o.db, vault: this.vault, providers: this.providers, connections: this.connections, ledger: o.ledger });
    this.injector = new HandleInjector(this.connections.handles, (id) => this.connections.credentialFor(id), (entry) => o.ledger.append(entry));
  }

  /**
   * The environment for a native process holding `handle` (a handle from connections.handles.issue): the provider's
   * base-URL variable pointing at the proxy on 127.0.0.1 and a dummy key bound to the handle.
   */
  async proxyEnvFor(handle: string): Promise<Record<string, string>> {
    if (this.disposed) throw new Error('the credential services are shut down');
    this.proxy ??= this.startProxy();
    return (await this.proxy).envFor(handle);
  }

  private startProxy(): Promise<CredentialProxy> {
    return CredentialProxy.start({
      handles: this.connections.handles,
      credentialFor: (id) => this.connections.credentialFor(id),
      providers: this.providers,
      audit: (entry) => this.o.ledger.append(entry),
    });
  }

  /**
   * Where the credential proxy's unix socket is and the port its base URLs name: a native-sandbox run given this in
   * LaunchPolicy.localServices reaches the proxy at the URL proxyEnvFor hands out.
   */
  async proxyBridge(): Promise<{ port: number; socketPath: string }> {
    if (this.disposed) throw new Error('the credential services are shut down');
    this.proxy ??= this.startProxy();
    return (await this.proxy).bridge;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    void this.proxy?.then((proxy) => proxy.dispose(), () => {});
    this.owner.dispose();
  }
}
