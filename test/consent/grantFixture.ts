import type { ConsentGrant } from '../../src-preload/contract';

/** A once-grant of a connection for ten minutes from now, in the given state, as the grants panel lists it. */
export const grantWithStatus = (status: ConsentGrant['status']): ConsentGrant => ({
  id: 'grant_abcdefgh',
  agentId: 'claude-writer',
  sessionId: 'ses_1',
  capability: 'oauth:anthropic.api',
  scope: null,
  action: null,
  once: true,
  expiresAt: Date.now() + 600_000,
  grantedAt: 1,
  grantedBy: 'user',
  status,
  endedAt: null,
  endedBy: null,
});
