// The credentials backend as the host would compose it, on a real SQLite file in a throwaway home: the ledger
// scrubbing at ingest with the vault's registry, the real consent engine, the OS keychain (or none), the provider
// registry and the Connections service.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HostLog } from '../../src-main/node/base/hostLog';
import { ConsentEngine } from '../../src-main/node/consent/consentEngine';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { ConnectionStore } from '../../src-main/node/vault/connectionStore';
import { Connections } from '../../src-main/node/vault/connections';
import { CredentialProxy } from '../../src-main/node/vault/credentialProxy';
import { CredentialVault } from '../../src-main/node/vault/credentialVault';
import { openHostKeychain, type HostKeychain } from '../../src-main/node/vault/hostKeychain';
import { ProviderRegistry, type Provider } from '../../src-main/node/vault/providers';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { tempDir } from '../helpers';

export interface VaultFixture {
  home: string;
  dbFile: string;
  db: Database;
  ledger: Ledger;
  consent: ConsentEngine;
  vault: CredentialVault;
  providers: ProviderRegistry;
  connections: Connections;
  scrubber: SecretScrubber;
  /** Everything the host log printed (scrubbed, as the host prints it). */
  logLines: string[];
  log: HostLog;
  /** Ledger entries of a type family, oldest first. */
  entries(typePrefix: string): { type: string; actor: string; payload: Record<string, unknown> }[];
  close(): void;
}

export async function vaultFixture(options: { keychain?: HostKeychain; providers?: Provider[]; refreshMarginMs?: number } = {}): Promise<VaultFixture> {
  const dir = tempDir('vault');
  const dbFile = join(dir.path, 'memory', 'sessions.db');
  const db = openDatabase(dbFile);
  const registry = new SecretRegistry();
  const scrubber = new SecretScrubber(registry);
  const logLines: string[] = [];
  const log = new HostLog({ scrub: (text) => scrubber.scrubText(text), write: (line) => logLines.push(line), prefix: '[host]' });
  const ledger = new Ledger(db, { scrub: (payload) => scrubber.scrubPayload(payload), onError: (error) => log.error('ledger:', error) });
  const consent = new ConsentEngine(db, ledger, { onError: (error) => log.error('consent:', error) });
  const keychain = options.keychain ?? (await openHostKeychain('os'));
  const vault = new CredentialVault(keychain, registry);
  await vault.ready;
  const providers = new ProviderRegistry(options.providers ?? []);
  const connections = new Connections({ db, ledger, vault, providers, consent, refreshMarginMs: options.refreshMarginMs });
  return {
    home: dir.path,
    dbFile,
    db,
    ledger,
    consent,
    vault,
    providers,
    connections,
    scrubber,
    logLines,
    log,
    entries(typePrefix) {
      ledger.flush();
      return db
        .prepare<[string], { type: string; actor: string; payload: string }>('SELECT type, actor, payload FROM audit_ledger WHERE type LIKE ? ORDER BY seq')
        .all(`${typePrefix}%`)
        .map((row) => ({ type: row.type, actor: row.actor, payload: JSON.parse(row.payload) as Record<string, unknown> }));
    },
    close() {
      connections.dispose();
      consent.dispose();
      ledger.dispose();
      vault.dispose();
      db.close();
      dir.cleanup();
    },
  };
}

/** Anthropic's API shape (the key in x-api-key) served by a local stand-in at `origin`, as the proxy tests use it. */
export function localAnthropic(origin: string): Provider {
  return {
    kind: 'api_key',
    id: 'anthropic-local',
    name: 'Anthropic (local stand-in)',
    placement: 'x-api-key',
    apiDomains: ['127.0.0.1'],
    apiBaseUrl: origin,
    proxyEnv: { baseUrl: 'ANTHROPIC_BASE_URL', apiKey: 'ANTHROPIC_API_KEY' },
  };
}

/** The credential proxy on the fixture's handles, connections, providers and ledger. */
export function startFixtureProxy(fixture: VaultFixture): Promise<CredentialProxy> {
  return CredentialProxy.start({
    handles: fixture.connections.handles,
    credentialFor: (id) => fixture.connections.credentialFor(id),
    providers: fixture.providers,
    audit: (entry) => fixture.ledger.append(entry),
  });
}

/** A connected OAuth connection of `provider`, written straight to the store: a client in use, without a sign-in. */
export function listConnection(db: Database, id: string, provider: string, label: string): void {
  const now = Date.now();
  new ConnectionStore(db).insert({
    id,
    provider,
    kind: 'oauth',
    label,
    scopes: ['repo'],
    baseUrl: null,
    status: 'connected',
    statusReason: null,
    expiresAt: null,
    createdAt: now,
    updatedAt: now,
    refreshedAt: null,
  });
}

/** Asserts that `secret` is in neither the fixture's database file nor its WAL (after the ledger's pending writes). */
export function assertNotOnDisk(fixture: VaultFixture, secret: string, what: string): void {
  fixture.ledger.flush();
  for (const file of [fixture.dbFile, `${fixture.dbFile}-wal`]) {
    if (!existsSync(file)) continue;
    assert.equal(readFileSync(file).includes(Buffer.from(secret)), false, `${file} holds ${what}`);
  }
}
