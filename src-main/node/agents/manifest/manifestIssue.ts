/**
 * One problem found in a manifest. Errors make the manifest unusable; warnings are printed but do not stop it.
 * Every issue says where (file, dotted key, line when known), what was expected, what was found and how to fix it,
 * so `omni agent validate` can list them all at once instead of one per run.
 */
export interface ManifestIssue {
  severity: 'error' | 'warning';
  code: ManifestIssueCode;
  /** The manifest file (absolute path). */
  file: string;
  /** Dotted key (`resources.mem`, `capabilities[2]`); null for problems with the file as a whole. */
  key: string | null;
  /** 1-based; null when the key is missing or its line could not be found. */
  line: number | null;
  column: number | null;
  expected: string;
  found: string;
  fix: string;
}

export type ManifestIssueCode =
  | 'file_unreadable'
  | 'toml_syntax'
  | 'missing_key'
  | 'wrong_type'
  | 'invalid_value'
  | 'unknown_key'
  | 'unknown_hint'
  | 'duplicate_value'
  | 'unsupported_schema_version'
  | 'entry_outside_folder'
  | 'entry_missing'
  | 'entry_not_wasm'
  | 'undeclared_oauth_scope';

/** `file:line:col: error: key: expected …, found …. Fix: …` — one line, greppable, editor-clickable. */
export function formatIssue(issue: ManifestIssue): string {
  const where = issue.line === null ? issue.file : `${issue.file}:${issue.line}${issue.column === null ? '' : `:${issue.column}`}`;
  const key = issue.key === null ? '' : `${issue.key}: `;
  return `${where}: ${issue.severity}: ${key}expected ${issue.expected}, found ${issue.found}. Fix: ${issue.fix}`;
}

/** How a value read from TOML is shown in "found …": its type and (short) value. */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing (the key is missing)';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `the number ${String(value)}`;
  if (typeof value === 'boolean') return `the boolean ${String(value)}`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object' && value !== null) return 'a table';
  return typeof value;
}
