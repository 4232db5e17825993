import type { z } from 'zod';

/**
 * A message from a worker thread that is not what the thread's protocol says it sends. The thread is ours, so this
 * is a bug (or a version skew between the host and a worker bundle), but what crosses a thread boundary arrives as
 * `unknown` like anything from another process, and is refused with what was wrong instead of being used as typed.
 */
export class WorkerMessageError extends Error {
  constructor(
    /** Which thread sent it, as a person would name it ("the event log's writer thread"). */
    readonly worker: string,
    readonly problems: readonly string[],
  ) {
    super(`${worker} sent a message the host does not understand: ${problems.join('; ')}`);
    this.name = 'WorkerMessageError';
  }
}

/** `message` as `schema` says, or a WorkerMessageError naming each field that is wrong. */
export function parseWorkerMessage<T>(schema: z.ZodType<T>, message: unknown, worker: string): T {
  const parsed = schema.safeParse(message);
  if (parsed.success) return parsed.data;
  throw new WorkerMessageError(
    worker,
    parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(message)'}: ${issue.message}`),
  );
}
