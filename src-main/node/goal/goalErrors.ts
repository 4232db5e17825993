import { RpcError } from '../../../src-preload/contract';
import { CheckpointAnswerError, CheckpointNotFoundError, LockTimeoutError, MetaPathError } from '../host';

/**
 * A host-protocol or goal-run failure as the typed error the UI shows. The domain errors already say what was wrong
 * and what to do; they only get a code. Programming errors (TypeError and the like) stay internal.
 */
export function toGoalRpcError(error: unknown): unknown {
  if (error instanceof RpcError) return error;
  if (error instanceof CheckpointNotFoundError) return new RpcError('NOT_FOUND', error.message);
  if (error instanceof CheckpointAnswerError) return new RpcError('INVALID_PARAMS', error.message, [{ path: 'answer', message: error.message }]);
  if (error instanceof MetaPathError) return new RpcError('INVALID_STATE', error.message);
  if (error instanceof LockTimeoutError) return new RpcError('UNAVAILABLE', error.message);
  if (error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError) return error;
  // The goal run's own refusals (already running, nothing to resume, a task without commits, git failing) are for the user.
  if (error instanceof Error) return new RpcError('INVALID_STATE', error.message);
  return error;
}

/** Runs `work` and turns what it throws into a typed error. */
export async function goalCall<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toGoalRpcError(error);
  }
}
