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

/** What "Verify" found: the whole chain intact, or the first entry that is not what the chain says it must be. */
export const LedgerVerdict = z.discriminatedUnion('intact', [
  z.object({ intact: z.literal(true), size: z.number().int(), headHash: z.string(), redacted: z.number().int() }),
  z.object({ intact: z.literal(false), size: z.number().int(), firstBadSeq: z.number().int(), reason: z.string() }),
]);
export type LedgerVerdict = z.infer<typeof LedgerVerdict>;

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
  /** Every entry appended after `afterSeq`, live. */
  'ledger.tail': stream(z.object({ afterSeq: z.number().int().min(0) }), LedgerEntry),
};
