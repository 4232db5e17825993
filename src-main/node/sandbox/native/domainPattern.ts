import { isIP } from 'node:net';
import { NativeSandboxPolicyError } from './nativeSandboxErrors';

/**
 * The network grant's allowlist: "api.github.com" matches that name only, "*.example.com" any name below
 * example.com (not example.com itself), an IP literal only itself. Names compare case-insensitively and without a
 * trailing dot, so "API.GitHub.com." is "api.github.com".
 */
export interface DomainAllowlist {
  matches(host: string): boolean;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function normalise(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

function isHostName(name: string): boolean {
  return name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
}

export function parseDomainAllowlist(patterns: readonly string[]): DomainAllowlist {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const raw of patterns) {
    const pattern = normalise(raw);
    if (isIP(pattern)) {
      exact.add(pattern);
      continue;
    }
    const wildcard = pattern.startsWith('*.');
    const name = wildcard ? pattern.slice(2) : pattern;
    if (!isHostName(name) || (wildcard && !name.includes('.'))) {
      throw new NativeSandboxPolicyError(
        'network.allowDomains',
        `"${raw}" is not a domain pattern`,
        'use a host name such as "api.github.com" or "*.example.com" (no scheme, port or path; a wildcard needs at least two labels after it)',
      );
    }
    if (wildcard) suffixes.push(`.${name}`);
    else exact.add(name);
  }
  return {
    matches(host: string): boolean {
      const name = normalise(host).replace(/^\[|\]$/g, '');
      return exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix) && name.length > suffix.length);
    },
  };
}
