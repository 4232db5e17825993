/**
 * The frames an agent's child process sends the host, as a schema the host parses every frame with. The child runs
 * a guest we do not trust in a process that guest may have subverted, so what arrives is `unknown` until it has
 * been checked, the same as a frame from the renderer at the RPC boundary. Only the host imports this file: the
 * child refers to the types alone (childProtocol.ts re-exports them as types), so zod stays out of its bundle.
 */
import { z } from 'zod';
import { ChildFrameError } from './childFrameError';

export const StepSchema = z.enum(['start', 'invoke', 'shutdown']);
export type Step = z.infer<typeof StepSchema>;

export const FromChildSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  /** A guest's omni.* call: answered with one frame holding the response JSON. */
  z.strictObject({ type: z.literal('call'), fn: z.string(), req: z.string() }),
  z.strictObject({ type: z.literal('log'), stream: z.enum(['stdout', 'stderr']), text: z.string() }),
  z.strictObject({ type: z.literal('done'), step: StepSchema }),
  z.strictObject({ type: z.literal('trap'), step: StepSchema, message: z.string(), atMemoryCap: z.boolean(), memoryBytes: z.number().nonnegative() }),
  z.strictObject({ type: z.literal('exit'), step: StepSchema, code: z.number().int() }),
  z.strictObject({ type: z.literal('failed'), step: StepSchema, message: z.string() }),
]);
export type FromChild = z.infer<typeof FromChildSchema>;

/** One frame's text as a FromChild; throws a ChildFrameError saying what is wrong with it otherwise. */
export function parseChildFrame(text: string): FromChild {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ChildFrameError(`not JSON: ${(error as Error).message}`, text);
  }
  const parsed = FromChildSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(frame)'}: ${issue.message}`);
  throw new ChildFrameError(problems.join('; '), text);
}
