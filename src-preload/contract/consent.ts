import { z } from 'zod';
import { call, liveList, stream } from './define';
import { SessionId } from './sessions';

export const GrantId = z.string().regex(/^grant_[A-Za-z0-9_-]{8,64}$/, 'expected a grant id like "grant_…"');
export const PromptId = z.string().regex(/^prompt_[A-Za-z0-9_-]{8,64}$/, 'expected a consent prompt id like "prompt_…"');

/** A capability granted to one agent in one session, narrowed by a scope, always time-bounded. */
export const ConsentGrant = z.object({
  id: GrantId,
  agentId: z.string(),
  sessionId: z.string(),
  capability: z.string(),
  /** A workspace path pattern (files.*), a domain pattern (network), or null. */
  scope: z.string().nullable(),
  /** Set when the grant covers exactly one sensitive action (e.g. "POST https://api.example.org/items"). */
  action: z.string().nullable(),
  /**
   * Allow once: good for one use, within a short window (expiresAt). For a connection (oauth:*), the one use is the
   * credential handle issued for one run of the agent: it covers every request of that run, then ends with it.
   */
  once: z.boolean(),
  expiresAt: z.number().int(),
  grantedAt: z.number().int(),
  grantedBy: z.string(),
  /** A used once-grant stays revocable while the work it allowed is in flight (for oauth:*, while the run goes on). */
  status: z.enum(['live', 'used', 'revoked', 'expired']),
  endedAt: z.number().int().nullable(),
  endedBy: z.string().nullable(),
});
export type ConsentGrant = z.infer<typeof ConsentGrant>;

/** What the consent card shows: which agent wants what, for what, and what "Allow" would grant. */
export const ConsentPrompt = z.object({
  id: PromptId,
  sessionId: z.string(),
  agentId: z.string(),
  capability: z.string(),
  /** The path or host the agent wants to use, if it named one. */
  target: z.string().nullable(),
  /** What an Allow covers: the agent's requested pattern, or just the target. */
  scope: z.string().nullable(),
  /** For a sensitive action: exactly what would be done (method and URL, command line). */
  action: z.string().nullable(),
  sensitive: z.boolean(),
  /** The agent's own words. */
  reason: z.string(),
  /** How long the agent asked for, in seconds (the user picks the actual duration). */
  durationS: z.number().int(),
  /**
   * For a files.write ask that says what it would write: the file's text now (null when it does not exist yet) and
   * the text after, secrets scrubbed, each cut at a size a card can show (`truncated`). The card shows a diff.
   */
  write: z.object({ path: z.string(), before: z.string().nullable(), after: z.string(), truncated: z.boolean() }).nullable().optional(),
  askedAt: z.number().int(),
  /**
   * When an unanswered prompt is denied. The clock runs only while a page watches the session's prompts: a page is
   * sent the deadline as it stands when it starts watching (it moves later after a time nobody watched).
   */
  deadline: z.number().int(),
});
export type ConsentPrompt = z.infer<typeof ConsentPrompt>;

/** The user's answer. Anything that does not parse as one of these is a denial. */
export const ConsentAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('allow_once') }),
  z.object({ kind: z.literal('allow_for'), minutes: z.number().int().min(1, 'at least 1 minute').max(24 * 60, 'at most 24 hours') }),
  z.object({ kind: z.literal('deny') }),
]);
export type ConsentAnswer = z.infer<typeof ConsentAnswer>;

export const ConsentPromptEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pending'), prompt: ConsentPrompt }),
  /** Answered, timed out or withdrawn: the card goes away. */
  z.object({ kind: z.literal('settled'), promptId: PromptId }),
]);
export type ConsentPromptEvent = z.infer<typeof ConsentPromptEvent>;

/** `spent`: a once-grant held by a run (a credential handle) whose run has ended; it leaves the grants list. */
export const GrantChange = z.object({ kind: z.enum(['granted', 'used', 'spent', 'revoked', 'expired']), grant: ConsentGrant });
export type GrantChange = z.infer<typeof GrantChange>;

export const consentContract = {
  /**
   * The session's pending prompts first, then each new or settled one. While nobody listens, prompts wait (their
   * deadline paused) for a page to open.
   */
  'consent.prompts': stream(z.object({ sessionId: SessionId }), ConsentPromptEvent),
  'consent.answer': call(z.object({ promptId: PromptId, answer: ConsentAnswer }), z.object({})),
  /** Live grants (and used once-grants still revocable), of one session or all. */
  'consent.grants': call(z.object({ sessionId: SessionId.optional() }), z.array(ConsentGrant)),
  /** The same list, live: a grant leaves it when revoked, expired or spent. */
  'consent.watchGrants': liveList(z.object({ sessionId: SessionId.optional() }), ConsentGrant, (grant) => grant.id),
  /** Takes effect at once, also on work in flight; answers the grant as it now is. */
  'consent.revoke': call(z.object({ grantId: GrantId }), ConsentGrant),
};
