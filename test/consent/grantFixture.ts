import type { ConsentGrant } from '../../src-preload/contract';

/** Read once: two grants made from the fixture are equal whatever the clock did between them. */
const expiresAt = Date.now() + 600_000;

/** A once-grant of a connection for ten minutes from now, in the given state, as the grants panel lists it. */
export const grantWithStatus = (status: ConsentGrant['status']): ConsentGrant => ({
  id: 'grant_abcdefgh',
  agentId: 'claude-writer',
  sessionId: 'ses_1',
  capability: 'oauth:anthropic.api',
  scope: null,
  action: null,
  once: true,
  expiresAt,
  grantedAt: 1,
  grantedBy: 'user',
  status,
  endedAt: null,
  endedBy: null,
});
