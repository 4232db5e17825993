// The manifest module's public face: what the registry, the runtime and the CLI use.
export type { AgentManifest } from './agentManifest';
export { KNOWN_CAPABILITIES, type Capability, type OAuthScope } from './capabilities';
export { ManifestError } from './manifestError';
export { formatIssue, type ManifestIssue, type ManifestIssueCode } from './manifestIssue';
export type { ManifestMigrationStep } from './manifestMigration';
export { MIGRATION_STEPS, migrateManifestTable, migrationPath, type MigrationChain, type MigrationResult } from './manifestMigrations';
export { migrateManifestFile, type MigrateOutcome } from './migrateManifestFile';
export { checkManifestBytes, errorsOf, loadManifest, readManifest, warningsOf, type ManifestReport } from './readManifest';
export { CURRENT_SCHEMA_VERSION, MANIFEST_FILE, SUPPORTED_SCHEMA_VERSIONS } from './schemaVersions';
export { formatMemory } from './resourceQuantities';
export { KNOWN_UI_HINTS } from './uiHints';
export type { ManifestCheckOptions } from './validateManifest';
