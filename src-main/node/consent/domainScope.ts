import { domainToASCII } from 'node:url';
import type { Normalised } from './pathScope';

/**
 * Domain scopes for network: `api.github.com` (that host only) or `*.example.org` (any host under example.org, at a
 * label boundary, not example.org itself). Hosts and patterns are compared in one canonical form: IDNA ASCII
 * (so a look-alike Unicode name never equals the ASCII one), lower case, without the trailing root dot.
 */

const LABELS = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/** The host of `target` (a host name, or a URL whose host is taken) in canonical form, or why it is refused. */
export function normaliseHost(target: unknown): Normalised {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) {
    return { ok: false, reason: 'the network target must be a host name or a URL' };
  }
  let host = target;
  if (target.includes('://')) {
    try {
      host = new URL(target).hostname;
    } catch {
      return { ok: false, reason: `"${target}" is not a valid URL` };
    }
  } else if (/[/@:?#\s\\]/.test(target) && !IPV6.test(target)) {
    return { ok: false, reason: `"${target}" is not a bare host name; give a host like "api.example.org" or a full URL` };
  }
  return canonicalHost(host, target);
}

function canonicalHost(host: string, original: string): Normalised {
  if (IPV6.test(host.toLowerCase())) return { ok: true, value: host.toLowerCase() };
  // One trailing dot names the same host (the DNS root); more than one is not a host name.
  const stripped = host.endsWith('.') ? host.slice(0, -1) : host;
  if (stripped === '' || stripped.endsWith('.')) return { ok: false, reason: `"${original}" is not a valid host name` };
  const ascii = domainToASCII(stripped);
  if (ascii === '' || !LABELS.test(ascii)) return { ok: false, reason: `"${original}" is not a valid host name` };
  return { ok: true, value: ascii };
}

export interface DomainPattern {
  readonly source: string;
  /** Canonical host for an exact pattern, or the canonical suffix (without "*.") for a wildcard. */
  readonly host: string;
  readonly wildcard: boolean;
}

export function parseDomainPattern(input: unknown): { ok: true; pattern: DomainPattern } | { ok: false; reason: string } {
  if (typeof input !== 'string' || input.length === 0) return { ok: false, reason: 'a domain pattern must be a non-empty string, e.g. "api.github.com" or "*.example.org"' };
  const wildcard = input.startsWith('*.');
  const rest = wildcard ? input.slice(2) : input;
  if (rest.includes('*')) return { ok: false, reason: `domain pattern "${input}": "*" is allowed only as a leading "*." label` };
  const host = /[/@:?#\s\\]/.test(rest) && !IPV6.test(rest) ? ({ ok: false, reason: '' } as const) : canonicalHost(rest, input);
  if (!host.ok) return { ok: false, reason: `domain pattern "${input}" is not a host name or "*." followed by one` };
  if (wildcard && (IPV4.test(host.value) || IPV6.test(host.value) || !host.value.includes('.'))) {
    return { ok: false, reason: `domain pattern "${input}" is too broad: "*." needs a domain with at least two labels, e.g. "*.example.org"` };
  }
  return { ok: true, pattern: { source: wildcard ? `*.${host.value}` : host.value, host: host.value, wildcard } };
}

/** Whether a canonical host (see normaliseHost) is covered by the pattern. */
export function matchDomainPattern(pattern: DomainPattern, canonical: string): boolean {
  if (!pattern.wildcard) return canonical === pattern.host;
  if (IPV4.test(canonical) || IPV6.test(canonical)) return false;
  return canonical.endsWith(`.${pattern.host}`);
}
