import { constants, copyFileSync, existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { stringify } from 'smol-toml';
import { writeFileDurably } from '../../base/durableWrite';
import type { ManifestIssue } from './manifestIssue';
import { ManifestIssues } from './manifestIssues';
import { migrateManifestTable, type MigrationResult } from './manifestMigrations';
import { parseManifestToml } from './parseManifestToml';
import { checkSchemaVersion } from './schemaVersionCheck';
import { CURRENT_SCHEMA_VERSION, MANIFEST_FILE } from './schemaVersions';
import { tomlKeyLines } from './tomlKeyLines';

export type MigrateOutcome =
  | { status: 'up_to_date'; file: string; version: string }
  | { status: 'migrated'; file: string; dryRun: boolean; migration: MigrationResult; text: string; backup: string | null }
  /** Unreadable, not TOML, or at a version with no migration path: `issues` says which. */
  | { status: 'failed'; file: string; issues: ManifestIssue[] };

/** The order keys are written in: the spec's, so a migrated manifest reads like a hand-written one. */
const KEY_ORDER = ['schema_version', 'name', 'version', 'entry', 'sandbox', 'capabilities', 'oauth_scopes', 'resources', 'ui'];

/**
 * `omni agent migrate`: brings `<folder>/manifest.toml` up to the current schema through every step on the way.
 * The original is copied to `manifest.toml.bak` (never over an earlier backup: then `.bak.1`, …) before the new text replaces it
 * atomically; with `dryRun` nothing is written. The TOML is re-written from its parsed form, so comments do not
 * survive (the backup keeps them).
 */
export function migrateManifestFile(agentFolder: string, options: { dryRun?: boolean } = {}): MigrateOutcome {
  const folder = resolve(agentFolder);
  const file = join(folder, MANIFEST_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { status: 'failed', file, issues: [{ severity: 'error', code: 'file_unreadable', file, key: null, line: null, column: null, expected: `a readable ${MANIFEST_FILE}`, found: code === 'ENOENT' ? `no ${MANIFEST_FILE} in ${folder}` : `an unreadable file (${code})`, fix: 'give the folder that holds the agent\'s manifest.toml' }] };
  }
  const issues = new ManifestIssues(file, tomlKeyLines(text));
  const table = parseManifestToml(text, issues);
  if (!table) return { status: 'failed', file, issues: issues.list };
  const version = table.schema_version;
  if (version === CURRENT_SCHEMA_VERSION) return { status: 'up_to_date', file, version };
  const migration = typeof version === 'string' ? migrateManifestTable(table, version) : null;
  if (!migration) {
    checkSchemaVersion(table, folder, issues);
    return { status: 'failed', file, issues: issues.list };
  }
  const backup = freeBackupPath(file);
  const header = `# Migrated from schema_version "${migration.from}" to "${migration.to}" by \`omni agent migrate\`; the original is in ${basename(backup)}.\n`;
  const newText = header + stringify(ordered(migration.table));
  if (options.dryRun) return { status: 'migrated', file, dryRun: true, migration, text: newText, backup: null };
  // COPYFILE_EXCL: should another migrate have taken the name meanwhile, fail rather than overwrite its backup.
  copyFileSync(file, backup, constants.COPYFILE_EXCL);
  writeFileDurably(file, newText);
  return { status: 'migrated', file, dryRun: false, migration, text: newText, backup };
}

function ordered(table: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(table).sort((a, b) => rank(a) - rank(b));
  return Object.fromEntries(keys.map((key) => [key, table[key]]));
}

const rank = (key: string): number => {
  const index = KEY_ORDER.indexOf(key);
  return index < 0 ? KEY_ORDER.indexOf('resources') - 0.5 : index;
};

/** manifest.toml.bak, or .bak.1, .bak.2 … when earlier backups exist: a backup is never overwritten. */
function freeBackupPath(file: string): string {
  for (let n = 0; ; n++) {
    const target = `${file}.bak${n === 0 ? '' : `.${n}`}`;
    if (!existsSync(target)) return target;
  }
}
