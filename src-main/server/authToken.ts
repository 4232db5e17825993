import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The connection token for the web transport. It is random, kept per app home in a file only the user can read,
 * so a restarted host accepts the pages it served before (they reconnect by themselves) and nobody else does.
 */
export function loadOrCreateToken(home: string, rotate = false): string {
  const file = join(home, 'auth-token');
  if (!rotate) {
    try {
      const existing = readFileSync(file, 'utf8').trim();
      if (/^[A-Za-z0-9_-]{32,}$/.test(existing)) return existing;
    } catch {
      // No token yet: make one.
    }
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

export function tokensMatch(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
