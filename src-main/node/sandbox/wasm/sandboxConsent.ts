import type { Disposable } from '../../../../src-preload/rpc';

/**
 * The part of the consent engine (docs/agent-runtime.md, src-main/node/consent) the sandbox uses, written out here
 * structurally so the sandbox builds and is tested on its own: the engine satisfies it as it is.
 */
export type ConsentDecision = 'allow' | 'deny';

export interface ConsentGrant {
  id: string;
  agentId: string;
  capability: string;
  scope: string | null;
  sessionId: string;
  expiresAt: number | null;
  once: boolean;
}

export interface ConsentUse {
  agentId: string;
  sessionId: string;
  capability: string;
  /** A workspace-relative path for files.*, a host name for network. */
  target?: string;
}

export interface SandboxConsent {
  check(use: ConsentUse): { decision: ConsentDecision; grantId?: string; reason: string };
  request(ask: ConsentUse & { reason: string; durationS: number }): Promise<ConsentDecision>;
  /** Fires when a grant is revoked or expires. */
  onDidRevoke: (listener: (grant: ConsentGrant) => void) => Disposable;
  list(sessionId?: string): ConsentGrant[];
}
