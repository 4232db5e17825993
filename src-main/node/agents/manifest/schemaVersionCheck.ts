import { describeFound } from './manifestIssue';
import type { ManifestIssues } from './manifestIssues';
import { migratableVersions } from './manifestMigrations';
import { CURRENT_SCHEMA_VERSION, SUPPORTED_SCHEMA_VERSIONS } from './schemaVersions';

/**
 * §10: a manifest at a version this build cannot read is rejected with a clear error, never half-read. Returns the
 * version when it is supported as is; otherwise records why not (and whether `omni agent migrate` helps).
 */
export function checkSchemaVersion(table: Record<string, unknown>, folder: string, issues: ManifestIssues): string | null {
  const value = table.schema_version;
  const supported = SUPPORTED_SCHEMA_VERSIONS.map((v) => `"${v}"`).join(', ');
  const expected = `schema_version = ${supported} (the versions this build reads)`;
  if (typeof value === 'number') {
    issues.error('wrong_type', 'schema_version', expected, describeFound(value), `quote it: schema_version = "${String(value)}"`);
    return null;
  }
  if (typeof value !== 'string') {
    issues.wrongType('schema_version', expected, value, `add schema_version = "${CURRENT_SCHEMA_VERSION}" as the first line`);
    return null;
  }
  if (SUPPORTED_SCHEMA_VERSIONS.includes(value)) return value;
  const migratable = migratableVersions();
  const fix = migratable.includes(value)
    ? `run \`omni agent migrate ${folder}\` to upgrade it to "${CURRENT_SCHEMA_VERSION}" (it keeps a manifest.toml.bak)`
    : isNewer(value)
      ? `this manifest is for a newer Omniscient Shell; update the shell, or ask the agent's author for a schema "${CURRENT_SCHEMA_VERSION}" manifest`
      : `use schema_version = "${CURRENT_SCHEMA_VERSION}"; \`omni agent migrate\` upgrades ${migratable.map((v) => `"${v}"`).join(', ') || 'no older versions'}`;
  issues.error('unsupported_schema_version', 'schema_version', `${expected}; \`omni agent migrate\` upgrades ${migratable.map((v) => `"${v}"`).join(', ')}`, `unsupported "${value}"`, fix);
  return null;
}

function isNewer(version: string): boolean {
  const parts = (v: string) => v.split('.').map((n) => Number.parseInt(n, 10));
  const [a, b] = [parts(version), parts(CURRENT_SCHEMA_VERSION)];
  if (a.some(Number.isNaN)) return false;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return false;
}
