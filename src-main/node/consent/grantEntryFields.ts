import type { ConsentGrant } from '../../../src-preload/contract';
import { recordedTarget } from './recordedTarget';

/** What every ledger entry about a grant says of it (grant, revoke, expire), the action stripped of credentials. */
export function grantEntryFields(grant: ConsentGrant): Record<string, unknown> {
  return { grantId: grant.id, agentId: grant.agentId, capability: grant.capability, scope: grant.scope, action: recordedTarget(grant.action) };
}
