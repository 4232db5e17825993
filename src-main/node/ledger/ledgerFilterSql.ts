import type { LedgerFilter } from '../../../src-preload/contract';

export type SqlValue = string | number | null;

/** A ledger filter as SQL: conditions ANDed with a seq range, plus what the time condition needs per seq window. */
export interface CompiledFilter {
  /** Identifies what the filter means (not how it was spelled), so counts can be cached under it. */
  readonly key: string;
  /** No entry can match, e.g. a type pattern that names no type in the ledger: skip SQL altogether. */
  readonly matchesNothing: boolean;
  /** Conditions on indexed or cheap columns and on text, without seq and time. */
  readonly conditions: readonly string[];
  readonly args: readonly SqlValue[];
  /** [fromTs, toTs) or undefined; applied per window, where a window's own time span may make it moot. */
  readonly time: { from: number; to: number } | undefined;
}

/** `*` is the only wildcard; everything else is literal. Case-insensitive, as types are matched everywhere. */
export function typePatternMatcher(pattern: string): (type: string) => boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const regex = new RegExp(`^${source}$`, 'is');
  return (type) => regex.test(type);
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped (use with ESCAPE '\'). */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/** A LIKE pattern for a type pattern: `*` becomes `%`, the rest literal. LIKE ignores ASCII case, as matching does. */
function likeTypePattern(pattern: string): string {
  return pattern
    .split('*')
    .map((part) => part.replace(/[\\%_]/g, '\\$&'))
    .join('%');
}

/**
 * Compiles a filter. `knownTypes` are the distinct types in the ledger (or undefined when there are too many to
 * list): type patterns are resolved against them into an IN list, which the (type, seq) index serves; without the
 * list they fall back to LIKE on the type column, slower but still correct.
 */
export function compileFilter(filter: LedgerFilter, knownTypes: readonly string[] | undefined): CompiledFilter {
  const conditions: string[] = [];
  const args: SqlValue[] = [];
  let matchesNothing = false;

  if (filter.sessionId === null) {
    conditions.push('session_id IS NULL');
  } else if (filter.sessionId !== undefined) {
    conditions.push('session_id = ?');
    args.push(filter.sessionId);
  }

  if (filter.actors) {
    const actors = [...new Set(filter.actors)].sort();
    conditions.push(`actor IN (${actors.map(() => '?').join(', ')})`);
    args.push(...actors);
  }

  const typePatterns = filter.types ? [...new Set(filter.types.map((t) => t.toLowerCase()))].sort() : undefined;
  if (typePatterns) {
    if (knownTypes) {
      const matchers = typePatterns.map(typePatternMatcher);
      const types = knownTypes.filter((type) => matchers.some((matches) => matches(type)));
      if (types.length === 0) matchesNothing = true;
      conditions.push(`type IN (${types.map(() => '?').join(', ')})`);
      args.push(...types);
    } else {
      conditions.push(`(${typePatterns.map(() => "type LIKE ? ESCAPE '\\'").join(' OR ')})`);
      args.push(...typePatterns.map(likeTypePattern));
    }
  }

  if (filter.text !== undefined) {
    // The payload is stored as JSON text, so a quote or a backslash in it reads \" or \\ there: try that form too.
    const needle = filter.text;
    const jsonForm = JSON.stringify(needle).slice(1, -1);
    const payloadTerms = jsonForm === needle ? [needle] : [needle, jsonForm];
    const terms = ['type', 'actor', ...payloadTerms.map(() => 'payload')].map((column) => `${column} LIKE ? ESCAPE '\\'`);
    conditions.push(`(${terms.join(' OR ')})`);
    args.push(likeContains(needle), likeContains(needle), ...payloadTerms.map(likeContains));
  }

  const time =
    filter.fromTs !== undefined || filter.toTs !== undefined
      ? { from: filter.fromTs ?? Number.MIN_SAFE_INTEGER, to: filter.toTs ?? Number.MAX_SAFE_INTEGER }
      : undefined;

  // Absent fields are left out and a null session stays null, so "any session" and "no session" differ.
  const key = JSON.stringify({
    session: filter.sessionId,
    actors: filter.actors ? [...new Set(filter.actors)].sort() : undefined,
    types: typePatterns,
    time: time ? [time.from, time.to] : undefined,
    text: filter.text,
  });
  return { key, matchesNothing, conditions, args, time };
}
