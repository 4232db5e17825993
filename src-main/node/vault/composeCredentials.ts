import type { AreaComposition } from '../base/areaComposition';
import type { HostLog } from '../base/hostLog';
import type { ConsentEngine } from '../consent/consentEngine';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { createCredentialHandlers } from './credentialHandlers';
import { CredentialServices } from './credentialServices';
import type { HostKeychain } from './hostKeychain';
import { applyProviderConfig } from './providerConfig';
import type { ProviderRegistry } from './providers';
import type { SecretRegistry } from './secretRegistry';

export interface CredentialsDeps {
  home: string;
  db: Database;
  ledger: Ledger;
  /** Waited for by each operation; without a keychain, credential features say why they are off (no plaintext fallback). */
  keychain: Promise<HostKeychain>;
  secrets: SecretRegistry;
  consent: ConsentEngine;
  /** Default: the built-in providers, adjusted by the home's provider config. */
  providers?: ProviderRegistry;
  log: HostLog;
  actor: string;
}

/** Connections (API keys, OAuth), handles and the credential proxy (docs/credentials.md). */
export function composeCredentials(deps: CredentialsDeps): AreaComposition<CredentialServices, ReturnType<typeof createCredentialHandlers>> {
  const { db, ledger, keychain, secrets, consent, providers, log } = deps;
  const credentials = new CredentialServices({ db, ledger, keychain, secrets, consent, ...(providers ? { providers } : {}) });
  applyProviderConfig(deps.home, credentials.providers, (problem) => log.error(problem));
  // The clients set up in the app come after the file's: saved there, they are what the user last chose.
  credentials.builtInClients.load();
  credentials.oauthClients.load();
  return { service: credentials, handlers: createCredentialHandlers(credentials, deps.actor), dispose: () => credentials.dispose() };
}
