/**
 * Why a module was refused before it ran. `problems` lists every reason (an undeclared import, an import outside
 * the ABI, a missing export), each naming what it is about, so an agent author can fix them all at once.
 */
export type RefusalCode = 'not_declared' | 'unknown_import' | 'bad_signature' | 'missing_export' | 'memory_quota' | 'invalid_module';

export interface ModuleProblem {
  code: RefusalCode;
  /** The import or export concerned, e.g. "omni.net_fetch". */
  subject: string;
  message: string;
}

export class ModuleRefusedError extends Error {
  readonly code: RefusalCode;

  constructor(readonly problems: readonly ModuleProblem[]) {
    super(`the agent's module was refused before it ran: ${problems.map((p) => p.message).join('; ')}`);
    this.name = 'ModuleRefusedError';
    this.code = problems[0]?.code ?? 'invalid_module';
  }
}

/**
 * Why a running agent was stopped by the sandbox: over its wall-clock deadline, over its CPU-time budget, over its
 * memory quota (linear memory at the cap, or the process's RSS), a trap in the guest, the child process dying, the
 * child process sending the host a frame that is not its protocol (protocol_error), or a kill asked for by the host.
 */
export type StopReason = 'timeout' | 'cpu_budget' | 'memory_limit' | 'trap' | 'crashed' | 'protocol_error' | 'killed';

export class AgentStoppedError extends Error {
  constructor(
    readonly reason: StopReason,
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'AgentStoppedError';
  }
}
