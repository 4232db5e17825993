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
  /** Every entry appended after `afterSeq`, live. */
  'ledger.tail': stream(z.object({ afterSeq: z.number().int().min(0) }), LedgerEntry),
};
