// The consent engine's public types: what is checked, what is asked, what comes back.
import type { ConsentGrant } from '../../../src-preload/contract';
import type { Clock } from './clock';

export type Decision = 'allow' | 'deny';

/** One use of a capability by an agent, checked at the moment it happens. */
export interface CapabilityUse {
  agentId: string;
  sessionId: string;
  capability: string;
  /** files.*: the path relative to the workspace, as the sandbox's resolver resolved it. network: the host or URL. */
  target?: string;
  /** network: the HTTP method. Anything but GET/HEAD/OPTIONS, or none at all, is a write and asked for per action. */
  method?: string;
  /** Exactly what is done, for sensitive actions: the URL of a network write, the command line of process.exec. */
  action?: string;
}

/** A request for consent: the use it is for, the agent's reason, and how long it would like the grant for. */
export interface ConsentAsk extends CapabilityUse {
  reason: string;
  durationS: number;
  /** A pattern wider than the target the agent would like (e.g. "src/**"); the prompt shows it. */
  scope?: string;
  /**
   * Ends the ask when whoever asked is gone (the agent stopped): its card is withdrawn and the answer is deny.
   * An ask with a signal of its own is never merged with another one.
   */
  signal?: AbortSignal;
  /** What a files.write would write, for the card's diff (ConsentPrompt.write); shown only, never granted on. */
  write?: { path: string; before: string | null; after: string; truncated: boolean };
}

export type CheckCode = 'granted' | 'no_grant' | 'needs_prompt' | 'denied_by_rule' | 'revoked' | 'expired' | 'bad_request';

export interface CheckResult {
  decision: Decision;
  code: CheckCode;
  reason: string;
  grantId?: string;
}

export interface ConsentOutcome {
  decision: Decision;
  reason: string;
  /** The grant that allows it (new, or one that already covered the ask). */
  grant?: ConsentGrant;
}

export interface RevokeEvent {
  grant: ConsentGrant;
  reason: 'revoked' | 'expired';
  actor: string;
}

export interface ConsentEngineOptions {
  clock?: Clock;
  /**
   * How long a prompt waits for an answer while someone can see it before it counts as a denial (default 30 min;
   * the countdown pauses while no page watches the session).
   */
  promptTimeoutMs?: number;
  /** How long an "Allow once" stays usable before its one use. */
  onceWindowMs?: number;
  onError?: (error: unknown) => void;
}
