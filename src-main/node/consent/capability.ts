/**
 * Capability names (spec §2, plus `process.exec`) and which uses of them are sensitive, i.e. need the user's
 * answer for that very action rather than a capability-wide grant.
 */
export const PLAIN_CAPABILITIES = ['files.read', 'files.write', 'network', 'media.preview', 'codegen', 'memory', 'process.exec'] as const;

/** `oauth:<provider>.<scope>`, e.g. `oauth:github.repo`. */
const OAUTH = /^oauth:[a-z0-9][a-z0-9_-]{0,63}\.[a-z0-9][a-z0-9_.:/-]{0,127}$/;

export type ScopeKind = 'path' | 'domain' | 'none';

export function isKnownCapability(name: unknown): name is string {
  return typeof name === 'string' && ((PLAIN_CAPABILITIES as readonly string[]).includes(name) || OAUTH.test(name));
}

/** What a capability's scope narrows: workspace paths for files.*, domains for network, nothing for the rest. */
export function scopeKind(capability: string): ScopeKind {
  if (capability === 'files.read' || capability === 'files.write') return 'path';
  if (capability === 'network') return 'domain';
  return 'none';
}

/** Methods that only read; any other (and a missing one, failing closed) makes a network use a write. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Network writes and process execution are asked for per action (spec §2 "Sensitive actions"). */
export function isSensitive(capability: string, method: string | undefined): boolean {
  if (capability === 'process.exec') return true;
  if (capability === 'network') return method === undefined || !SAFE_METHODS.has(method.toUpperCase());
  return false;
}
