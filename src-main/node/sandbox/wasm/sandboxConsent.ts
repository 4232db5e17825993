import type { ConsentEngine } from '../../consent/consentEngine';

/**
 * The part of the consent engine (src-main/node/consent) the sandbox uses: `authorize` at every use (the grant's
 * AbortSignal, or the typed capability_denied / capability_revoked error), `ask` for omni.consent, `list` for the
 * grants an agent starts with, `retireUsed` when a run ends (its spent "Allow once" grants leave the list). Tests hand in a small policy with the same shape.
 */
export type SandboxConsent = Pick<ConsentEngine, 'authorize' | 'ask' | 'list'> & Partial<Pick<ConsentEngine, 'retireUsed'>>;
