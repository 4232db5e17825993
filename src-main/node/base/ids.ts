import { randomBytes } from 'node:crypto';

/** Opaque, URL-safe ids with a readable prefix ("ses_…", "term_…"), matching the contract's id patterns. */
export function newId(prefix: 'ses' | 'term' | 'run' | 'snap' | 'turn'): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
