import { z } from 'zod';

/**
 * What the event log's writer thread sends the host (eventLogWriterWorker.ts → eventRowWriter.ts): a batch that
 * could not be written even after retries, whose rows are lost. The host parses it with this schema. Kept apart from
 * eventRowProtocol.ts so the worker, which only builds these, does not take zod along.
 */
export const WriterFailureSchema = z.strictObject({
  rows: z.number().int().nonnegative(),
  error: z.string(),
});
export type WriterFailure = z.infer<typeof WriterFailureSchema>;

export const WRITER_THREAD = "the event log's writer thread";
