import { randomBytes } from 'node:crypto';

/** Opaque ids in the shapes the consent contract accepts ("grant_…", "prompt_…", "rule_…"). */
export function newConsentId(prefix: 'grant' | 'prompt' | 'rule'): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
