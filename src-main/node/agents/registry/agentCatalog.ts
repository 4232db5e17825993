import type { AgentManifest, ManifestReport } from '../manifest';
import type { DiscoveredAgent } from './discoverAgents';
import type { AgentSource } from './agentSource';

/** A valid agent that can be run: the one that answers to its name. */
export interface CatalogAgent {
  source: AgentSource;
  folder: string;
  manifest: AgentManifest;
  /** SHA-256 (hex) of manifest.toml. */
  manifestSha256: string;
  /** Warnings from its manifest (unknown keys, hints …). */
  report: ManifestReport;
}

/** Everything found, sorted into what runs, what is broken and what is hidden by another agent of the same name. */
export interface AgentCatalog {
  agents: CatalogAgent[];
  invalid: DiscoveredAgent[];
  shadowed: { agent: CatalogAgent; by: CatalogAgent }[];
  /** One sentence per shadowing, for logs and `omni agent list`. */
  warnings: string[];
}

/** Names compare without case: "Code Helper" and "code helper" would be indistinguishable in a list. */
export const agentKey = (name: string): string => name.toLowerCase();

/**
 * Sorts discovered agents. A user agent shadows a bundled one of the same name (the user's choice wins, with a
 * warning so nobody wonders why the bundled one is gone); two agents of the same name from the same source are a
 * conflict the first (by folder name) wins, also with a warning.
 */
export function buildCatalog(discovered: readonly DiscoveredAgent[]): AgentCatalog {
  const catalog: AgentCatalog = { agents: [], invalid: [], shadowed: [], warnings: [] };
  const byName = new Map<string, CatalogAgent>();
  const valid: CatalogAgent[] = [];
  for (const found of discovered) {
    const { manifest, sha256 } = found.report;
    if (!manifest || !sha256) catalog.invalid.push(found);
    else valid.push({ source: found.source, folder: found.folder, manifest, manifestSha256: sha256, report: found.report });
  }
  // User agents first, so they take the name before any bundled agent does.
  const ordered = [...valid.filter((a) => a.source === 'user'), ...valid.filter((a) => a.source === 'bundled')];
  for (const agent of ordered) {
    const key = agentKey(agent.manifest.name);
    const holder = byName.get(key);
    if (!holder) {
      byName.set(key, agent);
      continue;
    }
    catalog.shadowed.push({ agent, by: holder });
    catalog.warnings.push(
      holder.source === agent.source
        ? `two ${agent.source} agents are named "${agent.manifest.name}": ${holder.folder} is used, ${agent.folder} is ignored (rename one of them)`
        : `the user agent "${holder.manifest.name}" (${holder.folder}) shadows the bundled one (${agent.folder}); remove or rename the user agent to use the bundled one again`,
    );
  }
  catalog.agents = [...byName.values()].sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
  return catalog;
}
