import { z } from 'zod';

const ChainVerdictSchema = z.discriminatedUnion('intact', [
  z.strictObject({ intact: z.literal(true), size: z.number().int().nonnegative(), headHash: z.string().regex(/^[0-9a-f]{64}$/), redacted: z.number().int().nonnegative(), elided: z.number().int().nonnegative() }),
  z.strictObject({ intact: z.literal(false), size: z.number().int().nonnegative(), firstBadSeq: z.number().int().positive(), reason: z.string() }),
]);

/**
 * What a verify-range worker (verifyRangeWorker.ts) posts back: its slice's chain verdict, or why it could not check.
 * One object with exactly one of the two (rather than a union of two shapes), so a wrong message is named by field.
 */
export const RangeWorkerMessage = z
  .strictObject({ verdict: ChainVerdictSchema.optional(), error: z.string().optional() })
  .refine((message) => (message.verdict === undefined) !== (message.error === undefined), { message: 'a verdict or an error, exactly one' });
export type RangeWorkerMessage = z.infer<typeof RangeWorkerMessage>;
