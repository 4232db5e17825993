import { harnessContract } from '../../../../src-preload/contract/harness';
import { liveListHandler, type Handlers } from '../../../../src-preload/rpc';
import type { HarnessSessionService } from './harnessSessionService';

/** The `harness.*` calls and streams: harness sessions as the person at the UI starts, resumes and stops them. */
export function createHarnessHandlers(harness: HarnessSessionService, actor: string): Handlers<typeof harnessContract> {
  return {
    'harness.start': ({ sessionId, ...request }) => harness.start(sessionId, request, actor),
    'harness.resume': ({ id, ...request }) => harness.resume(id, request, actor),
    'harness.stop': ({ id }) => harness.stop(id, actor),
    'harness.list': ({ sessionId }) => harness.list(sessionId),
    'harness.watch': liveListHandler(harnessContract['harness.watch'], {
      list: ({ sessionId }) => harness.list(sessionId),
      // Stored sessions stay (a stopped one can be resumed): every change is an upsert.
      onDidChange: ({ sessionId }, emit) =>
        harness.onDidChange((session) => {
          if (session.sessionId === sessionId) emit({ kind: 'upsert', item: session });
        }),
    }),
    'harness.output': ({ id }, sink) => {
      harness.get(id);
      return harness.attachOutput(id, sink);
    },
  };
}
