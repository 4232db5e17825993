import { z } from 'zod';

/**
 * Event protocol v0.1 (agent-instructions §4): how agents and the shell talk. Every event carries
 * `schema_version`; an event of another version is refused (`unsupported_schema_version`), never guessed at.
 * Field names are the spec's, snake_case as written there.
 */
export const EVENT_SCHEMA_VERSION = '0.1';
export const SUPPORTED_EVENT_SCHEMA_VERSIONS = [EVENT_SCHEMA_VERSION] as const;

const base = { schema_version: z.literal(EVENT_SCHEMA_VERSION) };
const id = z.string().min(1).max(200);

export const InputEvent = z.object({ ...base, type: z.literal('input'), agent_id: id, prompt: z.string().max(1_000_000), context_refs: z.array(z.string().max(4096)).max(1000) });
export const OutputEvent = z.object({
  ...base,
  type: z.literal('output'),
  agent_id: id,
  /** Chunks with the same id belong to one card, in order. */
  chunk_id: id,
  /** Picks the card: text/markdown, text/x-diff, text/x-log, text/x-code;lang=ts, image/png (data in base64) … */
  content_type: z.string().min(1).max(200),
  data: z.string().max(4_000_000),
});
export const ArtifactEvent = z.object({ ...base, type: z.literal('artifact'), id, kind: z.string().min(1).max(100), path: z.string().min(1).max(4096), preview_hint: z.string().max(100).nullable() });
export const ConsentRequestEvent = z.object({
  ...base,
  type: z.literal('consent_request'),
  capability: z.string().min(1).max(200),
  reason: z.string().max(2000),
  duration_s: z.number().int().min(0).max(7 * 24 * 3600),
});
export const ConsentGrantEvent = z.object({ ...base, type: z.literal('consent_grant'), capability: z.string().min(1).max(200), expires_at: z.number().int().nullable() });
export const ConsentRevokeEvent = z.object({ ...base, type: z.literal('consent_revoke'), capability: z.string().min(1).max(200), expires_at: z.number().int().nullable() });
export const ErrorEvent = z.object({ ...base, type: z.literal('error'), code: z.string().min(1).max(100), message: z.string().max(10_000), hint: z.string().max(2000).nullable() });
export const StateUpdateEvent = z.object({
  ...base,
  type: z.literal('state_update'),
  key: z.string().min(1).max(500),
  value: z.unknown(),
  scope: z.enum(['agent', 'session']),
});

export const AgentEvent = z.discriminatedUnion('type', [
  InputEvent,
  OutputEvent,
  ArtifactEvent,
  ConsentRequestEvent,
  ConsentGrantEvent,
  ConsentRevokeEvent,
  ErrorEvent,
  StateUpdateEvent,
]);
export type AgentEvent = z.infer<typeof AgentEvent>;
export type OutputEvent = z.infer<typeof OutputEvent>;
