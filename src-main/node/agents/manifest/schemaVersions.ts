/** The manifest schema this build reads. A manifest at an older version is migrated first (`omni agent migrate`). */
export const CURRENT_SCHEMA_VERSION = '0.1';

/** Versions readable directly, without migration. */
export const SUPPORTED_SCHEMA_VERSIONS: readonly string[] = [CURRENT_SCHEMA_VERSION];

/** The manifest file every agent folder holds. */
export const MANIFEST_FILE = 'manifest.toml';
