import { changesContract } from '../../../src-preload/contract/changes';
import { liveListHandler, type Handlers } from '../../../src-preload/rpc';
import type { ChangesService } from './changesService';

/** The `changes.*` calls: the person at the UI reviews every session's turns, so no call is scoped to one session. */
export function createChangesHandlers(changes: ChangesService, actor: string): Handlers<typeof changesContract> {
  return {
    'changes.turns': liveListHandler(changesContract['changes.turns'], {
      list: ({ sessionId }) => changes.turns(sessionId),
      // Turns are never deleted: each change (begun, ended, a verdict) is an upsert of the turn as it now is.
      onDidChange: ({ sessionId }, emit) =>
        changes.onDidChange((turn) => {
          if (turn.sessionId === sessionId) emit({ kind: 'upsert', item: turn });
        }),
    }),
    'changes.files': ({ turnId }) => changes.files(turnId),
    'changes.diff': ({ turnId, path }) => changes.diff(turnId, path),
    'changes.verdict': (request) => changes.verdict(request, actor),
    'changes.timeline': ({ sessionId }) => changes.timeline(sessionId),
    'changes.restorePlan': ({ snapshotId }) => changes.restorePlan(snapshotId),
    'changes.restore': ({ snapshotId }) => changes.restore(snapshotId, actor),
  };
}
