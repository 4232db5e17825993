import type { Ledger } from '../../ledger/ledger';
import type { Database } from '../../store/database';
import { agentKey, buildCatalog, type AgentCatalog, type CatalogAgent } from './agentCatalog';
import type { AgentRoot } from './agentSource';
import { discoverAgents } from './discoverAgents';
import { AGENT_REGISTER, lastRegistrations, type RegistrationRecord } from './registrationRecords';

export interface AgentRegistryOptions {
  db: Database;
  ledger: Ledger;
  /** assets/agents of the running build. */
  bundledDir: string;
  /** <home>/agents. */
  userDir: string;
}

/**
 * The agents this host knows (§3 "Registered": manifest discovered and validated). `refresh()` looks at the
 * bundled and user folders again and records in the ledger every agent whose manifest is new or changed since its
 * last `agent.register` entry (or which now comes from another folder), so restarts do not repeat entries but any
 * edit to a manifest is on the record with its SHA-256.
 */
export class AgentRegistry {
  private catalog: AgentCatalog = { agents: [], invalid: [], shadowed: [], warnings: [] };
  private recorded: Map<string, RegistrationRecord> | null = null;

  constructor(private readonly options: AgentRegistryOptions) {}

  get roots(): AgentRoot[] {
    return [
      { source: 'bundled', dir: this.options.bundledDir },
      { source: 'user', dir: this.options.userDir },
    ];
  }

  /** Discovers again, registers what changed, and returns the new catalog. */
  refresh(): AgentCatalog {
    const catalog = buildCatalog(discoverAgents(this.roots));
    if (!this.recorded) {
      this.options.ledger.flush();
      this.recorded = lastRegistrations(this.options.db);
    }
    for (const agent of catalog.agents) this.registerIfChanged(agent, this.recorded);
    this.catalog = catalog;
    return catalog;
  }

  /** The catalog of the last refresh. */
  get current(): AgentCatalog {
    return this.catalog;
  }

  /** The runnable agent of that name (any case), if any. */
  get(name: string): CatalogAgent | undefined {
    const key = agentKey(name);
    return this.catalog.agents.find((agent) => agentKey(agent.manifest.name) === key);
  }

  private registerIfChanged(agent: CatalogAgent, recorded: Map<string, RegistrationRecord>): void {
    const key = agentKey(agent.manifest.name);
    const last = recorded.get(key);
    if (last && last.manifestSha256 === agent.manifestSha256 && last.source === agent.source && last.folder === agent.folder) return;
    const { manifest } = agent;
    this.options.ledger.append({
      type: AGENT_REGISTER,
      actor: 'host',
      payload: {
        name: manifest.name,
        version: manifest.version,
        sandbox: manifest.sandbox,
        capabilities: manifest.capabilities,
        oauthScopes: manifest.oauthScopes.map((s) => `${s.provider}:${s.scope}`),
        source: agent.source,
        folder: agent.folder,
        manifestSha256: agent.manifestSha256,
      },
    });
    recorded.set(key, { manifestSha256: agent.manifestSha256, source: agent.source, folder: agent.folder });
  }
}
