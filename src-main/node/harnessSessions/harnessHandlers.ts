import { RpcError, type ErrorCode } from '../../../src-preload/contract';
import type { harnessContract } from '../../../src-preload/contract/harness';
import type { Handlers } from '../../../src-preload/rpc';
import { HarnessError } from '../harness';
import { HarnessSessionError } from './harnessSessionError';
import type { HarnessSessionService } from './harnessSessionService';

const CODES: Record<string, ErrorCode> = {
  HARNESS_NOT_FOUND: 'NOT_FOUND',
  HARNESS_CLI_MISSING: 'UNAVAILABLE',
  HARNESS_NO_CONNECTION: 'UNAVAILABLE',
  HARNESS_NOT_RESUMABLE: 'INVALID_STATE',
  HARNESS_ALREADY_RUNNING: 'INVALID_STATE',
  HARNESS_CWD_MISSING: 'INVALID_STATE',
  HARNESS_RESUME_CWD_MISMATCH: 'INVALID_STATE',
};

/** The harness module's and the service's typed refusals as bridge errors; the message says what to do. */
function bridgeError(error: unknown): unknown {
  if (error instanceof HarnessError || error instanceof HarnessSessionError) {
    return new RpcError(CODES[error.code] ?? 'INVALID_PARAMS', `${error.message} [${error.code}]`);
  }
  return error;
}

async function mapped<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw bridgeError(error);
  }
}

/** The `harness.*` calls and streams: harness sessions as the person at the UI starts, resumes and stops them. */
export function createHarnessHandlers(harness: () => HarnessSessionService, actor: string): Handlers<typeof harnessContract> {
  return {
    'harness.start': ({ sessionId, ...request }) => mapped(() => harness().start(sessionId, request, actor)),
    'harness.resume': ({ id, ...request }) => mapped(() => harness().resume(id, request, actor)),
    'harness.stop': ({ id }) => mapped(() => harness().stop(id, actor)),
    'harness.list': ({ sessionId }) => harness().list(sessionId),
    'harness.changes': ({ sessionId }, sink) => {
      const service = harness();
      service.list(sessionId);
      return service.onDidChange((session) => {
        if (session.sessionId === sessionId) sink.push(session);
      });
    },
    'harness.output': ({ id }, sink) => {
      const service = harness();
      try {
        service.get(id);
      } catch (error) {
        throw bridgeError(error);
      }
      return service.attachOutput(id, sink);
    },
  };
}
