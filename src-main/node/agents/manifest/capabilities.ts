/**
 * Capability names of spec §2, plus `process.exec` (docs/agent-runtime.md). `oauth:<provider>.<scope>` is a family:
 * its provider and scope are checked by shape, and the scope must also be listed in `oauth_scopes`.
 */
export const KNOWN_CAPABILITIES = ['files.read', 'files.write', 'network', 'media.preview', 'codegen', 'memory', 'process.exec'] as const;

export type KnownCapability = (typeof KNOWN_CAPABILITIES)[number];
/** `oauth:github.repo` and the like. */
export type OAuthCapability = `oauth:${string}`;
export type Capability = KnownCapability | OAuthCapability;

const PROVIDER = '[a-z][a-z0-9_-]*';
/** A scope is whatever the provider calls it (`repo`, `drive.readonly`, an https URL), short of spaces and commas. */
const SCOPE = '[^\\s,]+';
const OAUTH_CAPABILITY = new RegExp(`^oauth:(${PROVIDER})\\.(${SCOPE})$`);
const OAUTH_SCOPE = new RegExp(`^(${PROVIDER}):(${SCOPE})$`);

export interface OAuthScope {
  provider: string;
  scope: string;
}

export function isKnownCapability(name: string): name is KnownCapability {
  return (KNOWN_CAPABILITIES as readonly string[]).includes(name);
}

/** `oauth:google.drive.readonly` → {google, drive.readonly}: the provider ends at the first dot. */
export function parseOAuthCapability(name: string): OAuthScope | null {
  const match = OAUTH_CAPABILITY.exec(name);
  return match ? { provider: match[1], scope: match[2] } : null;
}

/** An `oauth_scopes` entry, `provider:scope`. */
export function parseOAuthScope(text: string): OAuthScope | null {
  const match = OAUTH_SCOPE.exec(text);
  return match ? { provider: match[1], scope: match[2] } : null;
}

/** The closest known name, for "did you mean" (a typo costs the author a round trip otherwise). */
export function closestName(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
