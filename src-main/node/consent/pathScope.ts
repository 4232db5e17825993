/**
 * Path scopes for files.*: a pattern relative to the workspace (`src/**`, `docs/*.md`, `**` = everything) matched
 * against the path an agent uses, also relative to the workspace.
 *
 * Matching is purely on normalised text, so the engine refuses what it cannot judge safely instead of guessing:
 * `..` segments (the sandbox's resolver hands over real, resolved paths, so a `..` means someone skipped it),
 * absolute paths, NUL, and percent-encoded dots or separators (something downstream might decode them). A
 * backslash counts as a separator, as it does on Windows. Following symlinks is the resolver's job (invariant 5);
 * here `src/link/../x` is simply refused.
 */

export type Normalised = { ok: true; value: string } | { ok: false; reason: string };

const ENCODED_DOT_OR_SEPARATOR = /%(2e|2f|5c|00)/i;
const MAX_PATH = 4096;

/** The path as `a/b/c` (the workspace root is ''), or why it is refused. */
export function normaliseWorkspacePath(input: unknown): Normalised {
  if (typeof input !== 'string') return { ok: false, reason: 'the path must be a string' };
  if (input.length > MAX_PATH) return { ok: false, reason: `the path is longer than ${MAX_PATH} characters` };
  if (input.includes('\0')) return { ok: false, reason: 'the path contains a NUL character' };
  if (ENCODED_DOT_OR_SEPARATOR.test(input)) {
    return { ok: false, reason: 'the path contains a percent-encoded dot or separator; give the plain path' };
  }
  const path = input.normalize('NFC').replace(/\\/g, '/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    return { ok: false, reason: `"${input}" is absolute; give the path relative to the workspace` };
  }
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return { ok: false, reason: `"${input}" contains "..": give the resolved path inside the workspace` };
    segments.push(segment);
  }
  return { ok: true, value: segments.join('/') };
}

type Token = { kind: 'globstar' } | { kind: 'segment'; regex: RegExp };

export interface PathPattern {
  readonly source: string;
  readonly tokens: readonly Token[];
}

/** Parses `src/**`, `*.md`, `a/?/b`; `\` escapes the next character (see literalPathPattern). */
export function parsePathPattern(input: unknown, caseInsensitive = false): { ok: true; pattern: PathPattern } | { ok: false; reason: string } {
  if (typeof input !== 'string' || input.trim() === '') return { ok: false, reason: 'a path pattern must be a non-empty string, e.g. "src/**"' };
  if (input.length > MAX_PATH || input.includes('\0')) return { ok: false, reason: 'the path pattern is too long or contains NUL' };
  if (ENCODED_DOT_OR_SEPARATOR.test(input)) return { ok: false, reason: 'the path pattern contains a percent-encoded dot or separator' };
  const source = input.normalize('NFC');
  if (source.startsWith('/') || /^[A-Za-z]:/.test(source)) {
    return { ok: false, reason: `path pattern "${input}" is absolute; patterns are relative to the workspace, e.g. "src/**"` };
  }
  const tokens: Token[] = [];
  for (const segment of splitUnescaped(source)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return { ok: false, reason: `path pattern "${input}" contains "..": patterns stay inside the workspace` };
    if (segment === '**') {
      if (tokens.at(-1)?.kind !== 'globstar') tokens.push({ kind: 'globstar' });
      continue;
    }
    const regex = segmentRegex(segment, caseInsensitive);
    if (!regex) return { ok: false, reason: `path pattern "${input}": "**" must be a whole segment and "\\" must escape a character` };
    tokens.push({ kind: 'segment', regex });
  }
  if (tokens.length === 0) return { ok: false, reason: `path pattern "${input}" names nothing; use "**" for the whole workspace` };
  return { ok: true, pattern: { source, tokens } };
}

/** Whether a normalised path (see normaliseWorkspacePath) is inside the pattern. `**` also matches zero segments. */
export function matchPathPattern(pattern: PathPattern, normalisedPath: string): boolean {
  const segments = normalisedPath === '' ? [] : normalisedPath.split('/');
  const tokens = pattern.tokens;
  // Position pairs already known not to match: keeps a pattern with many `**` linear-ish instead of exponential.
  const failed = new Set<number>();
  const width = segments.length + 1;
  const match = (t: number, s: number): boolean => {
    if (t === tokens.length) return s === segments.length;
    const key = t * width + s;
    if (failed.has(key)) return false;
    const token = tokens[t];
    let ok: boolean;
    if (token.kind === 'globstar') {
      ok = false;
      for (let next = s; next <= segments.length && !ok; next++) ok = match(t + 1, next);
    } else {
      ok = s < segments.length && token.regex.test(segments[s]) && match(t + 1, s + 1);
    }
    if (!ok) failed.add(key);
    return ok;
  };
  return match(0, 0);
}

/** A pattern matching exactly one path: wildcards and backslashes in its names are escaped. */
export function literalPathPattern(normalisedPath: string): string {
  if (normalisedPath === '') return '**';
  return normalisedPath.replace(/[\\*?]/g, (c) => `\\${c}`);
}

function splitUnescaped(source: string): string[] {
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\' && i + 1 < source.length) {
      current += c + source[++i];
    } else if (c === '/') {
      segments.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  segments.push(current);
  return segments;
}

function segmentRegex(segment: string, caseInsensitive: boolean): RegExp | null {
  let body = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\') {
      if (i + 1 >= segment.length) return null;
      body += escapeRegex(segment[++i]);
    } else if (c === '*') {
      if (segment[i + 1] === '*') return null;
      body += '[^/]*';
    } else if (c === '?') {
      body += '[^/]';
    } else {
      body += escapeRegex(c);
    }
  }
  return new RegExp(`^${body}$`, caseInsensitive ? 'iu' : 'u');
}

function escapeRegex(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
