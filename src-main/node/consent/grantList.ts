import type { ConsentGrant, GrantChange } from '../../../src-preload/contract';
import type { LiveChange } from '../../../src-preload/rpc';

/** Whether the grants panel lists a grant: one the user can still revoke (live, or a used once-grant still held). */
export function isListedGrant(grant: ConsentGrant): boolean {
  return grant.status === 'live' || grant.status === 'used';
}

/**
 * A grant change as the grants list sees it. A spent once-grant (its run is over) is still 'used' but nothing runs
 * under it any more, so it leaves the list, as revoked and expired grants do.
 */
export function grantListChange({ kind, grant }: GrantChange): LiveChange<ConsentGrant> {
  return kind !== 'spent' && isListedGrant(grant) ? { kind: 'upsert', item: grant } : { kind: 'remove', id: grant.id };
}
