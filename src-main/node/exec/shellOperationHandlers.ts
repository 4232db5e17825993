import type { execContract, ShellRequest, ShellResult } from '../../../src-preload/contract/exec';
import type { Handlers } from '../../../src-preload/rpc';
import type { SessionService } from '../sessions/sessionService';
import type { ExecService } from './execService';

type ShellOperationHandlers = Pick<Handlers<typeof execContract>, 'exec.spawn' | 'exec.poll' | 'exec.kill' | 'exec.sendKeys'>;

/**
 * The UI's exec calls, one per operation, as shell tool requests on the same ExecService: one set of rules, one
 * ledger story and one worker for the user's runs whichever way they were asked for. Each call's schema already
 * requires what its operation needs, so the tool's own field checks only ever see complete requests.
 */
export function createShellOperationHandlers(exec: ExecService, sessions: SessionService, actor: string): ShellOperationHandlers {
  // Poll, kill and send_keys find the run by id: they need no workspace.
  const byId = (request: ShellRequest): Promise<ShellResult> => exec.shell(request, { actor, workspace: '' });
  return {
    'exec.spawn': async ({ sessionId, command, pty, background, timeoutSecs, maxOutputBytes, watch, cwd }) => {
      const { workspace } = sessions.getOpen(sessionId);
      const request: ShellRequest = { action: 'spawn', session_id: sessionId, command, pty, background, timeout_secs: timeoutSecs, max_output_bytes: maxOutputBytes, watch, cwd };
      const result = answered(await exec.shell(request, { actor, workspace }), 'spawn');
      return { runId: result.run_id, status: result.status };
    },
    'exec.poll': async ({ runId, sinceSeq }) => {
      const result = answered(await byId({ action: 'poll', run_id: runId, since_seq: sinceSeq }), 'poll');
      return { status: result.status, exitCode: result.exit_code, items: result.items, nextSeq: result.next_seq, more: result.more };
    },
    'exec.kill': async ({ runId }) => ({ status: answered(await byId({ action: 'kill', run_id: runId }), 'kill').status }),
    'exec.sendKeys': async ({ runId, keys }) => ({ seq: answered(await byId({ action: 'send_keys', run_id: runId, keys }), 'send_keys').seq }),
  };
}

/** The tool answers each action with that action's result; anything else is a bug in the host, not the caller's. */
function answered<A extends ShellResult['action']>(result: ShellResult, action: A): Extract<ShellResult, { action: A }> {
  if (result.action !== action) throw new Error(`the shell tool answered action=${action} with a result for "${result.action}"`);
  return result as Extract<ShellResult, { action: A }>;
}
