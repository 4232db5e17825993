import { relative } from 'node:path';
import { DomainError } from '../../base/domainError';
import type { ShellRequest, ShellResult } from '../../../../src-preload/contract/exec';
import { commandArgv, parseShellRequest, resolveRunCwd } from '../../exec/shellRequestRules';
import { HostCallError } from './hostCallError';
import type { SandboxConsent } from './sandboxConsent';

/** The host's shell tool as agents reach it: ExecService.shell with the agent as the caller. */
export type ShellBackend = (request: ShellRequest, caller: { actor: string; sessionId: string; workspace: string }) => Promise<ShellResult>;

export interface AgentShellOptions {
  agentId: string;
  sessionId: string;
  workspace: string;
  consent: SandboxConsent;
  backend: ShellBackend;
  /** Aborts when the agent stops: a prompt still open is withdrawn. */
  stopped: AbortSignal;
}

/**
 * omni.shell: the `shell` tool for a WASM agent. Running a command is a sensitive action (spec §2): each one is
 * checked against the agent's live `process.exec` grants for exactly that command line and working directory, and
 * without one the user is asked on a consent card showing the argv and cwd. A grant revoked while its run is going
 * kills the run. poll, kill and send_keys act on the session's runs only and need no consent of their own.
 */
export class AgentShell {
  constructor(private readonly o: AgentShellOptions) {}

  async call(raw: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { reason, ...rest } = raw;
    let request: ShellRequest;
    try {
      request = parseShellRequest(rest);
    } catch (error) {
      throw asGuestError(error);
    }
    const starts = request.action === undefined || request.action === 'spawn';
    let grantSignal: AbortSignal | undefined;
    if (starts) {
      const action = this.describe(request);
      grantSignal = await this.consentTo(action, typeof reason === 'string' && reason.trim() ? reason : `run ${action}`);
    }
    let result: ShellResult;
    try {
      result = await this.o.backend(request, { actor: `agent:${this.o.agentId}`, sessionId: this.o.sessionId, workspace: this.o.workspace });
    } catch (error) {
      throw asGuestError(error);
    }
    if (grantSignal && result.action === 'spawn') this.killOnRevoke(result.run_id, grantSignal);
    return { ...result };
  }

  /** What the consent card shows and the grant covers: the exact argv and the working directory. */
  private describe(request: ShellRequest): string {
    let cwd: string;
    try {
      cwd = relative(this.o.workspace, resolveRunCwd(this.o.workspace, request.cwd)) || '.';
    } catch (error) {
      throw asGuestError(error);
    }
    return `${JSON.stringify(commandArgv(request.command!))} in ${cwd}${request.pty ? ' (pty)' : ''}`;
  }

  /** A live grant for this exact command, or the user's answer on a consent card; the grant's signal. */
  private async consentTo(action: string, reason: string): Promise<AbortSignal> {
    const { agentId, sessionId, consent } = this.o;
    const use = { agentId, sessionId, capability: 'process.exec', action };
    try {
      return consent.authorize(use).signal;
    } catch (first) {
      if ((first as { code?: string }).code === 'capability_revoked') throw asGuestError(first);
    }
    const outcome = await consent.ask({ ...use, reason, durationS: 600, signal: this.o.stopped });
    if (outcome.decision !== 'allow') {
      throw new HostCallError('capability_denied', `the user did not allow running ${action}: ${outcome.reason}`, 'carry on without running it, or explain why it is needed and ask again');
    }
    try {
      return consent.authorize(use).signal;
    } catch (error) {
      throw asGuestError(error);
    }
  }

  private killOnRevoke(runId: string, signal: AbortSignal): void {
    const kill = () => void this.o.backend({ action: 'kill', run_id: runId }, { actor: `agent:${this.o.agentId}`, sessionId: this.o.sessionId, workspace: this.o.workspace }).catch(() => undefined);
    if (signal.aborted) kill();
    else signal.addEventListener('abort', kill, { once: true });
  }
}

/** The shell tool's refusals (DomainError kinds) as the guest's host call errors: the guest ABI's own codes. */
function asGuestError(error: unknown): HostCallError {
  if (error instanceof HostCallError) return error;
  if (error instanceof DomainError) {
    const code = error.kind === 'not_found' ? 'not_found' : 'bad_request';
    return new HostCallError(code, error.message, error.issues?.map((i) => `${i.path}: ${i.message}`).join('; ') || 'fix the request and try again');
  }
  const guest = (error as { toGuestError?: () => { code: string; message: string; hint: string } } | null)?.toGuestError?.();
  if (guest) return new HostCallError(guest.code === 'capability_revoked' ? 'capability_revoked' : 'capability_denied', guest.message, guest.hint);
  throw error;
}
