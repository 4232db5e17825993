import { draft00To01 } from './draft00To01';
import type { ManifestMigrationStep } from './manifestMigration';
import { CURRENT_SCHEMA_VERSION } from './schemaVersions';

/**
 * Every migration step, oldest first. A new schema version adds its step here (e.g. `{ from: '0.1', to: '0.2' }`)
 * and moves CURRENT_SCHEMA_VERSION; older manifests then walk the whole chain.
 */
export const MIGRATION_STEPS: readonly ManifestMigrationStep[] = [draft00To01];

/** Which steps exist and where they lead: the real chain, or another one in tests. */
export interface MigrationChain {
  steps: readonly ManifestMigrationStep[];
  current: string;
}

const REAL_CHAIN: MigrationChain = { steps: MIGRATION_STEPS, current: CURRENT_SCHEMA_VERSION };

/** The steps from `version` to the current schema, or null when there is no path (unknown or newer version). */
export function migrationPath(version: string, chain: MigrationChain = REAL_CHAIN): ManifestMigrationStep[] | null {
  const path: ManifestMigrationStep[] = [];
  let at = version;
  while (at !== chain.current) {
    const step = chain.steps.find((candidate) => candidate.from === at);
    if (!step || path.includes(step)) return null;
    path.push(step);
    at = step.to;
  }
  return path;
}

/** Versions `omni agent migrate` can bring up to date. */
export function migratableVersions(): string[] {
  return MIGRATION_STEPS.map((step) => step.from).filter((version) => migrationPath(version) !== null);
}

export interface MigrationResult {
  from: string;
  to: string;
  table: Record<string, unknown>;
  /** What each step changed, in order. */
  steps: { from: string; to: string; changes: string[] }[];
}

/** Runs the chain; null when `from` has no path to the current schema. */
export function migrateManifestTable(table: Record<string, unknown>, from: string, chain: MigrationChain = REAL_CHAIN): MigrationResult | null {
  const path = migrationPath(from, chain);
  if (!path) return null;
  let current = table;
  const steps: MigrationResult['steps'] = [];
  for (const step of path) {
    const result = step.migrate(current);
    current = result.table;
    steps.push({ from: step.from, to: step.to, changes: result.changes });
  }
  return { from, to: chain.current, table: current, steps };
}
