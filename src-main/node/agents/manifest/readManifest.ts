import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentManifest } from './agentManifest';
import { ManifestError } from './manifestError';
import type { ManifestIssue } from './manifestIssue';
import { ManifestIssues } from './manifestIssues';
import { parseManifestToml } from './parseManifestToml';
import { checkSchemaVersion } from './schemaVersionCheck';
import { MANIFEST_FILE } from './schemaVersions';
import { tomlKeyLines } from './tomlKeyLines';
import { validateManifest, type ManifestCheckOptions } from './validateManifest';

/** Everything known about one agent folder's manifest: the typed manifest when valid, and every issue either way. */
export interface ManifestReport {
  folder: string;
  file: string;
  /** SHA-256 (hex) of the file's bytes; null when it could not be read. */
  sha256: string | null;
  manifest: AgentManifest | null;
  /** Errors and warnings in the order found. */
  issues: ManifestIssue[];
}

export const errorsOf = (report: { issues: readonly ManifestIssue[] }): ManifestIssue[] => report.issues.filter((i) => i.severity === 'error');
export const warningsOf = (report: { issues: readonly ManifestIssue[] }): ManifestIssue[] => report.issues.filter((i) => i.severity === 'warning');

/** Reads and validates `<folder>/manifest.toml`. Never throws for a bad manifest: the report says what is wrong. */
export function readManifest(agentFolder: string, options: ManifestCheckOptions = {}): ManifestReport {
  const folder = resolve(agentFolder);
  const file = join(folder, MANIFEST_FILE);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const found = code === 'ENOENT' ? `no ${MANIFEST_FILE} in ${folder}` : `${MANIFEST_FILE} could not be read (${code ?? (error as Error).message})`;
    const fix = code === 'ENOENT' ? `add a ${MANIFEST_FILE} (schema_version, name, version, entry, sandbox, capabilities, oauth_scopes, resources, ui.hints)` : 'check the file and its permissions';
    return { folder, file, sha256: null, manifest: null, issues: [{ severity: 'error', code: 'file_unreadable', file, key: null, line: null, column: null, expected: `a readable ${MANIFEST_FILE}`, found, fix }] };
  }
  return checkManifestBytes(folder, bytes, options);
}

/** Validates manifest bytes as if they were `<folder>/manifest.toml` (also for a migration's result before it is written). */
export function checkManifestBytes(agentFolder: string, bytes: Buffer, options: ManifestCheckOptions = {}): ManifestReport {
  const folder = resolve(agentFolder);
  const file = join(folder, MANIFEST_FILE);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const text = bytes.toString('utf8');
  const issues = new ManifestIssues(file, tomlKeyLines(text));
  const table = parseManifestToml(text, issues);
  const manifest = table && checkSchemaVersion(table, folder, issues) ? validateManifest(table, folder, issues, options) : null;
  return { folder, file, sha256, manifest, issues: issues.list };
}

/** For callers that need a usable manifest: throws ManifestError listing every error. */
export function loadManifest(agentFolder: string): AgentManifest {
  const report = readManifest(agentFolder);
  if (!report.manifest) throw new ManifestError(report.file, report.issues);
  return report.manifest;
}
