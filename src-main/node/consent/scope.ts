import { scopeKind } from './capability';
import { matchDomainPattern, normaliseHost, parseDomainPattern } from './domainScope';
import { literalPathPattern, matchPathPattern, normaliseWorkspacePath, parsePathPattern, type Normalised } from './pathScope';

/**
 * A capability's scope and target, whatever their kind: one place decides what a scope string means for a
 * capability and whether a target falls inside it.
 */

/** Matches a normalised target; a scope of null covers every target. */
export type ScopeMatcher = (normalisedTarget: string | null) => boolean;

export type CompiledScope = { ok: true; source: string | null; matches: ScopeMatcher } | { ok: false; reason: string };

/**
 * `caseInsensitive` is for the user's deny and ask rules: on a case-insensitive file system `SECRETS/key` is the
 * same file as `secrets/key`, so a rule must not be dodged by changing case, while a grant is matched exactly
 * (the narrower reading of each, so both fail safe).
 */
export function compileScope(capability: string, scope: string | null | undefined, caseInsensitive = false): CompiledScope {
  const kind = scopeKind(capability);
  if (scope === null || scope === undefined) {
    if (kind === 'domain') return { ok: false, reason: 'a network grant needs a domain pattern, e.g. "api.github.com" or "*.example.org"' };
    return { ok: true, source: null, matches: () => true };
  }
  if (kind === 'none') return { ok: false, reason: `${capability} takes no scope (got "${scope}")` };
  if (kind === 'path') {
    const parsed = parsePathPattern(scope, caseInsensitive);
    if (!parsed.ok) return parsed;
    const pattern = parsed.pattern;
    return { ok: true, source: pattern.source, matches: (target) => target !== null && matchPathPattern(pattern, target) };
  }
  const parsed = parseDomainPattern(scope);
  if (!parsed.ok) return parsed;
  const pattern = parsed.pattern;
  return { ok: true, source: pattern.source, matches: (target) => target !== null && matchDomainPattern(pattern, target) };
}

/**
 * The target in the form scopes are matched against: the workspace-relative path for files.* (the root when none
 * is given), the canonical host for network (required), null for capabilities without scopes.
 */
export function normaliseTarget(capability: string, target: unknown): Normalised | { ok: true; value: null } {
  const kind = scopeKind(capability);
  if (kind === 'path') return normaliseWorkspacePath(target ?? '');
  if (kind === 'domain') {
    if (target === undefined || target === null) return { ok: false, reason: 'a network use must name its host or URL' };
    return normaliseHost(target);
  }
  return { ok: true, value: null };
}

/** The narrowest scope covering just this target: what "Allow" grants when the agent did not ask for a pattern. */
export function scopeForTarget(capability: string, normalisedTarget: string | null): string | null {
  const kind = scopeKind(capability);
  if (kind === 'path') return literalPathPattern(normalisedTarget ?? '');
  if (kind === 'domain') return normalisedTarget;
  return null;
}
