// The credentials backend's public types: what the Connections view and the host see of connections and flows.
import type { Connection } from './connectionStore';
import type { HandleInfo } from './credentialHandles';
import type { CredentialPlacement } from './providers';
import type { Secret } from './secret';

/** A provider as the Connections view offers it. */
export interface ProviderInfo {
  id: string;
  name: string;
  kind: 'api_key' | 'oauth';
  /** OAuth: which ways to connect it offers; empty until its client id is configured. */
  flows: ('device' | 'pkce')[];
  /** OpenAI-compatible: the connection must name its base URL. */
  needsBaseUrl: boolean;
  configured: boolean;
}

/** A connection with the agents holding handles to it. */
export interface ConnectionView extends Connection {
  handles: HandleInfo[];
}

/** Whether credential features work at all, and if not, why (shown in place of the Connect buttons). */
export interface VaultStatus {
  available: boolean;
  problem: string | null;
}

export interface DeviceFlowStarted {
  flowId: string;
  provider: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string | null;
  expiresAt: number;
  intervalS: number;
}

export interface PkceFlowStarted {
  flowId: string;
  provider: string;
  /** Open in the system browser. */
  authorizeUrl: string;
  redirectUri: string;
  expiresAt: number;
}

/** Progress of a running connect flow, for the view (a stream in the contract). */
export type FlowEvent =
  | { flowId: string; kind: 'pending'; polls: number }
  | { flowId: string; kind: 'slow_down'; intervalS: number; polls: number }
  | { flowId: string; kind: 'connected'; connectionId: string }
  | { flowId: string; kind: 'failed'; reason: string; message: string }
  | { flowId: string; kind: 'cancelled' };

export interface DisconnectResult {
  connection: Connection;
  /** True when the provider confirmed the revocation (RFC 7009); false when it has no endpoint for it. */
  revokedAtProvider: boolean;
  /** Why revoking at the provider failed (the local credential is gone regardless). */
  providerError: string | null;
  handlesEnded: number;
}

/** The credential for one use, as the fetch injector and the proxy need it. */
export interface UsableCredential {
  connectionId: string;
  placement: CredentialPlacement;
  value: Secret<string>;
  /** Exact host names the value may be sent to. */
  apiDomains: readonly string[];
  /** Where the proxy forwards to. */
  apiBaseUrl: string | null;
}

