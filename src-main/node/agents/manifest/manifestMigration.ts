/**
 * One step of the manifest migration chain: rewrites a parsed manifest of schema `from` into schema `to`, saying
 * in plain words what it changed. Steps work on plain TOML tables, not on typed manifests, because each step only
 * knows the two layouts on either side of it.
 */
export interface ManifestMigrationStep {
  from: string;
  to: string;
  migrate(table: Record<string, unknown>): { table: Record<string, unknown>; changes: string[] };
}
