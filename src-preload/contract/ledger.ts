import { z } from 'zod';
import { call, stream } from './define';

export const LedgerEntry = z.object({
  seq: z.number().int().positive(),
  ts: z.number().int(),
  type: z.string(),
  /** 'user', 'host', or an agent id. */
  actor: z.string(),
  sessionId: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

/** The signed checkpoint an intact verdict rests on: the ledger's key vouched for the first `seq` entries. */
export const LedgerCheckpointInfo = z.object({
  seq: z.number().int().positive(),
  ts: z.number().int(),
  keyId: z.string(),
  /** Where the key the signatures were checked against came from: pinned by the user, the keychain, or only the file itself. */
  keySource: z.enum(['keychain', 'key-file', 'embedded']),
});
export type LedgerCheckpointInfo = z.infer<typeof LedgerCheckpointInfo>;

/**
 * What "Verify" found: the whole ledger intact, or where it is not what the chain, its checkpoints and the keychain's
 * record say. An intact verdict with `checkpoint: null` is only "chain consistent, unsigned": the hashes agree with
 * each other, which anyone who rewrites a ledger can arrange, so it proves nothing about who wrote it.
 */
export const LedgerVerdict = z.discriminatedUnion('intact', [
  z.object({
    intact: z.literal(true),
    size: z.number().int(),
    headHash: z.string(),
    redacted: z.number().int(),
    /** The newest signed checkpoint, or null when none was signed yet (or none could be checked). */
    checkpoint: LedgerCheckpointInfo.nullable(),
    /** Things worth knowing that do not make the ledger bad, e.g. "the keychain could not be read". */
    notes: z.array(z.string()),
  }),
  z.object({
    intact: z.literal(false),
    size: z.number().int(),
    firstBadSeq: z.number().int(),
    reason: z.string(),
    /**
     * Set when a signature shows that something in this range changed without saying which entry: a re-chained
     * rewrite hashes consistently, so only the signed head at `to` (and the intact one before `from`) catches it.
     */
    changed: z.object({ from: z.number().int(), to: z.number().int() }).optional(),
  }),
]);
export type LedgerVerdict = z.infer<typeof LedgerVerdict>;

/** True for an intact verdict that no signature vouches for. */
export const ledgerVerdictUnsigned = (verdict: LedgerVerdict): boolean => verdict.intact && verdict.checkpoint === null;

/** The one-line verdict the CLI prints and the ledger view shows. */
export function describeLedgerVerdict(verdict: LedgerVerdict): string {
  if (!verdict.intact) {
    if (verdict.changed) return `NOT INTACT: changed within entries ${verdict.changed.from}-${verdict.changed.to}: ${verdict.reason}`;
    return `NOT INTACT: entry ${verdict.firstBadSeq} is the first bad one: ${verdict.reason} (entries 1-${verdict.size} are intact)`;
  }
  if (!verdict.checkpoint) {
    return `chain consistent, unsigned: ${verdict.size} entries, head ${verdict.headHash}; no signed checkpoint, so this proves nothing about who wrote it`;
  }
  return `intact: ${verdict.size} entries, head ${verdict.headHash}, last signed checkpoint at seq ${verdict.checkpoint.seq}`;
}

/**
 * Which entries a ledger query sees. Every field narrows the result; an empty filter matches every entry.
 * - `sessionId`: one session's entries; `null` for entries outside any session (the host's own).
 * - `actors`: any of these actors ('user', 'host', or an agent id), exactly.
 * - `types`: any of these type patterns, case-insensitive; `*` matches any run of characters, so `terminal.*` is the
 *   terminal family and `*grant*` any type containing "grant". Without `*` a pattern is one exact type.
 * - `fromTs` (inclusive) / `toTs` (exclusive): milliseconds since the epoch.
 * - `text`: a substring of the type, the actor or the payload's JSON text; ASCII letters match either case.
 */
export const LedgerFilter = z
  .strictObject({
    sessionId: z.string().min(1).max(200).nullable().optional(),
    actors: z.array(z.string().min(1).max(200)).min(1).max(50).optional(),
    types: z.array(z.string().min(1).max(200)).min(1).max(50).optional(),
    fromTs: z.number().int().optional(),
    toTs: z.number().int().optional(),
    text: z.string().trim().min(1, 'search text is empty; leave `text` out to match every entry').max(200).optional(),
  })
  .refine((f) => f.fromTs === undefined || f.toTs === undefined || f.fromTs < f.toTs, {
    message: 'fromTs must be earlier than toTs (fromTs is inclusive, toTs exclusive)',
    path: ['toTs'],
  });
export type LedgerFilter = z.infer<typeof LedgerFilter>;

const Seq = z.number().int().min(0);

/**
 * Where a page starts in the filtered list, which is ordered newest first and holds the matches with
 * seq <= untilSeq. `index` jumps to any position (0 is the newest match); `olderThan` / `newerThan` continue from an
 * entry the caller already has (keyset paging: the page just below, or just above, that seq).
 */
export const LedgerPosition = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('index'), index: z.number().int().min(0) }),
  z.object({ kind: z.literal('olderThan'), seq: Seq }),
  z.object({ kind: z.literal('newerThan'), seq: Seq }),
]);
export type LedgerPosition = z.infer<typeof LedgerPosition>;

export const LedgerPage = z.object({
  /** Newest first. Fewer than asked for means the list ends there (or begins, for `newerThan`). */
  entries: z.array(LedgerEntry),
  /** The snapshot the page was cut from: pass it back so positions stay put while new entries arrive. */
  untilSeq: Seq,
});
export type LedgerPage = z.infer<typeof LedgerPage>;

export const LedgerCount = z.object({
  value: z.number().int().min(0),
  /** False when counting everything would have taken too long: `value` is then extrapolated; ask again to refine. */
  exact: z.boolean(),
  untilSeq: Seq,
});
export type LedgerCount = z.infer<typeof LedgerCount>;

/** The values the filter menus offer: what occurs in the ledger, sorted. */
export const LedgerFacets = z.object({
  types: z.array(z.string()),
  actors: z.array(z.string()),
  sessions: z.array(z.string()),
  /** Whether any entry has no session (the host's own entries). */
  noSession: z.boolean(),
  /** True when a list was cut at its limit (a ledger with thousands of distinct values). */
  truncated: z.boolean(),
  head: Seq,
});
export type LedgerFacets = z.infer<typeof LedgerFacets>;

const Hash = z.string().regex(/^[0-9a-f]{64}$/);

/** One entry with its place in the hash chain, for the detail panel. */
export const LedgerEntryDetail = LedgerEntry.extend({ entryHash: Hash, prevHash: Hash, payloadCommit: Hash });
export type LedgerEntryDetail = z.infer<typeof LedgerEntryDetail>;

/** What to export: everything, or one session's entries; payloads withheld by type or field, or all of them. */
export const LedgerExportRequest = z.object({
  sessionId: z.string().min(1).optional(),
  redactAll: z.boolean().default(false),
  /** Types whose payloads are withheld; `prefix.*` names a family. */
  redactTypes: z.array(z.string().min(1).max(200)).max(100).default([]),
  /** Fields (top-level or dotted paths) whose presence withholds a payload. */
  redactFields: z.array(z.string().min(1).max(200)).max(100).default([]),
});
export type LedgerExportRequest = z.input<typeof LedgerExportRequest>;

export const LedgerExportEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('progress'), written: z.number().int(), total: z.number().int() }),
  z.object({
    kind: z.literal('done'),
    /** Where the host wrote it (in the app home's exports folder). */
    file: z.string(),
    entries: z.number().int(),
    redacted: z.number().int(),
    elided: z.number().int(),
    checkpoints: z.number().int(),
    bytes: z.number().int(),
  }),
]);
export type LedgerExportEvent = z.infer<typeof LedgerExportEvent>;

export const ledgerContract = {
  /** Newest first, paged backwards with `beforeSeq`. */
  'ledger.list': call(
    z.object({
      sessionId: z.string().optional(),
      beforeSeq: z.number().int().positive().optional(),
      limit: z.number().int().min(1).max(1000).default(200),
    }),
    z.array(LedgerEntry),
  ),
  /** Re-checks the whole hash chain and every payload commitment, from a read-only snapshot. */
  'ledger.verify': call(z.object({}), LedgerVerdict),
  /**
   * One page of the filtered ledger, newest first. `untilSeq` pins the snapshot (default: the head now), so an index
   * keeps naming the same entry while new ones arrive; the answer says which snapshot it used.
   */
  'ledger.query': call(
    z.object({
      filter: LedgerFilter.default({}),
      untilSeq: Seq.optional(),
      from: LedgerPosition.default({ kind: 'index', index: 0 }),
      limit: z.number().int().min(1).max(1000).default(100),
    }),
    LedgerPage,
  ),
  /** How many entries with afterSeq < seq <= untilSeq match the filter (afterSeq defaults to 0, untilSeq to the head). */
  'ledger.count': call(z.object({ filter: LedgerFilter.default({}), afterSeq: Seq.optional(), untilSeq: Seq.optional() }), LedgerCount),
  /** The distinct types, actors and sessions in the ledger, for the filter menus. */
  'ledger.facets': call(z.object({}), LedgerFacets),
  /** One entry with its hashes; NOT_FOUND when there is no such seq. */
  'ledger.entry': call(z.object({ seq: z.number().int().positive() }), LedgerEntryDetail),
  /**
   * Writes an export file a reviewer can verify offline (`omni ledger verify --file`): progress while it runs, then
   * one `done` and the end of the stream. Ending the subscription early abandons the export (no file is left).
   */
  'ledger.export': stream(LedgerExportRequest, LedgerExportEvent),
  /** Every entry appended after `afterSeq`, live. */
  'ledger.tail': stream(z.object({ afterSeq: z.number().int().min(0) }), LedgerEntry),
};
