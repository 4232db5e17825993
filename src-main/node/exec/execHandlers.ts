import { execContract } from '../../../src-preload/contract/exec';
import { liveListHandler, toDisposable, type Handlers } from '../../../src-preload/rpc';
import type { NativeSandbox } from '../sandbox/native/nativeSandbox';
import type { SessionService } from '../sessions/sessionService';
import type { ExecService } from './execService';
import { createShellOperationHandlers } from './shellOperationHandlers';

/**
 * The `exec.*` calls and streams of the contract: the shell tool as the person at the UI (or `omni shell`) uses it.
 * The user may act on any session's runs; a run's working directory resolves inside its session's workspace.
 */
export function createExecHandlers(exec: ExecService, sessions: SessionService, sandbox: NativeSandbox, actor: string): Handlers<typeof execContract> {
  return {
    'exec.sandbox': () => {
      const probe = sandbox.probeSandbox();
      return { usable: probe.usable, problem: probe.problem && { message: probe.problem.message, hint: probe.problem.hint }, items: probe.items };
    },
    'exec.shell': (request) => {
      // Only spawning needs the workspace (and an open session); poll, kill and send_keys find the run by id.
      const spawns = request.action === undefined || request.action === 'spawn';
      const workspace = spawns && request.session_id ? sessions.getOpen(request.session_id).workspace : '';
      return exec.shell(request, { actor, workspace });
    },
    ...createShellOperationHandlers(exec, sessions, actor),
    'exec.runs': ({ sessionId }) => {
      sessions.get(sessionId);
      return exec.listRuns(sessionId);
    },
    'exec.backlog': ({ sessionId }) => {
      sessions.get(sessionId);
      return exec.backlog(sessionId);
    },
    'exec.watchRuns': liveListHandler(execContract['exec.watchRuns'], {
      list: ({ sessionId }) => {
        sessions.get(sessionId);
        return exec.listRuns(sessionId);
      },
      // Runs are kept, never deleted: every change is an upsert.
      onDidChange: ({ sessionId }, emit) => toDisposable(exec.subscribeRuns(sessionId, (run) => emit({ kind: 'upsert', item: run }))),
    }),
    // Replays from storage only as fast as the card grants credit, then follows live; ends once the run has ended.
    'exec.items': ({ runId, sinceSeq }, sink) => exec.attachItems(runId, sinceSeq ?? 0, sink),
  };
}
