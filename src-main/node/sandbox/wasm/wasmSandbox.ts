import type { Disposable } from '../../../../src-preload/rpc';
import type { LedgerAppend } from '../../ledger/ledger';
import { AgentHostCalls, type OutputChunk } from './agentHostCalls';
import type { ShellBackend } from './agentShell';
import type { AgentStore } from './agentStore';
import { prepareModule } from './prepareModule';
import type { ResourceLimits } from './resourceWatch';
import type { SandboxConsent } from './sandboxConsent';
import { WarmPool } from './warmPool';
import { WasmAgent } from './wasmAgent';
import { WorkspaceFiles } from './workspaceFiles';
import type { CredentialInjector } from '../../vault/handleInjection';

export interface WasmSandboxOptions {
  consent: SandboxConsent;
  store: AgentStore;
  audit?: (entry: LedgerAppend) => void;
  /** Idle processes kept started (0: every start is cold). */
  warmProcesses?: number;
  /** V8 heap cap of each agent process, MiB. */
  childHeapMb?: number;
  /** The agent process's script, when not the one beside this module. */
  childScript?: string;
  network?: { trustedAddresses?: ReadonlySet<string>; timeoutMs?: number; maxBodyBytes?: number };
  /** The host's shell tool, for agents that declare process.exec (omni.shell). */
  shell?: ShellBackend;
  /** Credential handles for oauth:* grants (vault/handleInjection.ts); without it a handle on net_fetch is refused. */
  credentials?: CredentialInjector;
}

export interface WasmAgentSpec {
  agentId: string;
  sessionId: string;
  workspaceRoot: string;
  workspaceName?: string;
  /** The module's bytes as the agent ships them. */
  module: Uint8Array;
  /** The manifest's capabilities. */
  capabilities: readonly string[];
  limits: ResourceLimits;
  config?: unknown;
  /** See AgentHostCallsOptions.outputPacing. */
  outputPacing?: (chunk: OutputChunk) => number;
  /** The agent's view of the workspace when not the plain one (StagedWorkspaceFiles: writes held until a commit). */
  files?: WorkspaceFiles;
}

/**
 * Runs WASM agents: checks and caps a module before anything of it runs (ModuleRefusedError otherwise), gives it a
 * process from the warm pool, wires its host functions to the consent engine, the workspace and the store, and
 * calls omni_start. The caller owns the WasmAgent it gets back (invoke, suspend, resume, shutdown, kill).
 */
export class WasmSandbox implements Disposable {
  private readonly pool: WarmPool;

  constructor(private readonly options: WasmSandboxOptions) {
    this.pool = new WarmPool(options.warmProcesses ?? 2, { heapMb: options.childHeapMb, script: options.childScript });
  }

  whenWarm(): Promise<void> {
    return this.pool.whenWarm();
  }

  async start(spec: WasmAgentSpec): Promise<WasmAgent> {
    const declared = new Set(spec.capabilities);
    const module = prepareModule(spec.module, declared, spec.limits.memBytes);
    const files = spec.files ?? new WorkspaceFiles(spec.workspaceRoot);
    const { consent, store, audit, network, shell, credentials } = this.options;
    const calls = new AgentHostCalls({
      agentId: spec.agentId,
      sessionId: spec.sessionId,
      declared,
      consent,
      files,
      store,
      audit,
      network,
      outputPacing: spec.outputPacing,
      shell: shell ? { backend: shell, workspace: spec.workspaceRoot } : undefined,
      credentials,
    });
    const { child } = await this.pool.take();
    const agent = new WasmAgent(child, calls, spec.limits);
    const granted = consent
      .list(spec.sessionId)
      .filter((g) => g.agentId === spec.agentId)
      .map((g) => ({ capability: g.capability, scope: g.scope, expires_at: g.expiresAt }));
    await agent.start(module, {
      agent_id: spec.agentId,
      session_id: spec.sessionId,
      workspace_name: spec.workspaceName ?? '',
      granted,
      config: spec.config ?? {},
    });
    return agent;
  }

  dispose(): void {
    this.pool.dispose();
  }
}
