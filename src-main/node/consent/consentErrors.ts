/**
 * The errors an agent gets when a capability is not there. Both carry what the guest ABI sends back
 * (`{ code, message, hint }`), so the agent can route around them: ask again, or take its fallback path.
 */
import { DomainError } from '../base/domainError';

export interface GuestError {
  code: string;
  message: string;
  hint: string;
}

/** No live grant covers the use (or a rule of the user's forbids it). */
export class CapabilityDeniedError extends Error {
  readonly code = 'capability_denied';

  constructor(
    readonly capability: string,
    readonly target: string | null,
    reason: string,
    readonly hint: string = `ask for "${capability}" with a reason (omni.consent), or carry on without it`,
  ) {
    super(`${capability}${target === null ? '' : ` on ${target}`} denied: ${reason}`);
    this.name = 'CapabilityDeniedError';
  }

  toGuestError(): GuestError {
    return { code: this.code, message: this.message, hint: this.hint };
  }
}

/** The grant that covered the use was revoked by the user or ran out: work relying on it stops. */
export class CapabilityRevokedError extends Error {
  readonly code = 'capability_revoked';
  readonly hint: string;

  constructor(
    readonly capability: string,
    readonly grantId: string,
    readonly why: 'revoked' | 'expired',
  ) {
    super(
      why === 'revoked'
        ? `the user revoked "${capability}" (grant ${grantId}); what was running on it was stopped`
        : `the grant for "${capability}" (grant ${grantId}) expired; what was running on it was stopped`,
    );
    this.name = 'CapabilityRevokedError';
    this.hint = `ask again for "${capability}" (omni.consent) if the user should decide anew, or use the fallback path`;
  }

  toGuestError(): GuestError {
    return { code: this.code, message: this.message, hint: this.hint };
  }
}

/** revoke() of a grant id the engine has never issued. */
export class GrantNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(readonly grantId: string) {
    super('not_found', `no grant ${grantId}: it may belong to another home folder; list grants to see the live ones`);
    this.name = 'GrantNotFoundError';
  }
}
