import { parse, TomlError } from 'smol-toml';
import type { ManifestIssues } from './manifestIssues';

/** Parses the TOML text; a syntax error becomes one issue at its line and column (with the parser's own words). */
export function parseManifestToml(text: string, issues: ManifestIssues): Record<string, unknown> | null {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml's message is "Invalid TOML document: <what>\n\n<code block>": keep the first line's reason.
    const reason = error.message.split('\n')[0].replace(/^Invalid TOML document:\s*/, '');
    issues.push({
      severity: 'error',
      code: 'toml_syntax',
      file: issues.file,
      key: null,
      line: error.line,
      column: error.column,
      expected: 'valid TOML',
      found: reason,
      fix: `correct the TOML at line ${error.line}, column ${error.column}:\n${error.codeblock.replace(/\n+$/, '')}`,
    });
    return null;
  }
}
