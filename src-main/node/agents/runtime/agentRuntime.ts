import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { DomainError } from '../../base/domainError';
import type { AgentInfo, AgentRunInfo, BrokenAgent } from '../../../../src-preload/contract/agents';
import { EVENT_SCHEMA_VERSION } from '../../../../src-preload/contract/agentEvents';
import type { Disposable } from '../../../../src-preload/rpc';
import { newId } from '../../base/ids';
import type { TurnRecorder } from '../../changes/turnRecorder';
import type { ConsentEngine } from '../../consent/consentEngine';
import type { Ledger } from '../../ledger/ledger';
import type { NativeSandbox } from '../../sandbox/native/nativeSandbox';
import { AgentStoppedError, ModuleRefusedError } from '../../sandbox/wasm/sandboxErrors';
import type { WasmAgent } from '../../sandbox/wasm/wasmAgent';
import type { WasmSandbox } from '../../sandbox/wasm/wasmSandbox';
import { StagedWorkspaceFiles } from '../../sandbox/wasm/stagedWorkspaceFiles';
import { WorkspaceFiles } from '../../sandbox/wasm/workspaceFiles';
import type { SessionService } from '../../sessions/sessionService';
import { errorsOf, formatIssue, warningsOf } from '../manifest';
import { INTERNAL_HINT } from '../manifest/uiHints';
import type { CatalogAgent } from '../registry/agentCatalog';
import type { AgentRegistry } from '../registry/agentRegistry';
import { AgentRun } from './agentRun';
import type { AgentRunLog } from './agentRunLog';
import { followDenials } from './runDenials';
import { composeTurnPrompt, turnInputFields, type AgentTurn } from './agentTurn';
import { NativeAgent } from './nativeAgent';
import { cardKindOf } from './cardKind';
import { proxyAccessFor, type AgentCredentialBroker } from './credentialAccess';
import { isModelAgentEntry, LlmConfigError, LlmError, startLlmAgent, type LlmAgent, type LlmAgentHost } from '../../llm';
import { TokenBucket } from './tokenBucket';

export interface AgentRuntimeOptions {
  registry: AgentRegistry;
  /**
   * Made on first use: the sandbox keeps agent processes started ahead of time, which a host that never runs an
   * agent (most tests, a quick look at the ledger) should not pay for.
   */
  sandbox: () => WasmSandbox;
  sessions: SessionService;
  ledger: Ledger;
  now?: () => number;
  /** Native agents (sandbox = "native"): the OS sandbox they run in and the consent engine that must allow them. */
  native?: { sandbox: () => NativeSandbox; consent: Pick<ConsentEngine, 'ask' | 'list'> };
  /**
   * Connections for agents that declare oauth:<provider>.<scope> and run outside the WASM host calls (native
   * programs): a handle per granted capability, reached through the credential proxy.
   */
  credentials?: AgentCredentialBroker;
  /** Model-backed agents (entry *.llm.toml, docs/llm-agents.md): the consent engine and llm-models.json. */
  llm?: LlmAgentHost;
  /** Messages queued for the session's agent since its last turn (watcher events of runs), taken as delivered. */
  takeBacklog?: (sessionId: string) => string[];
  /** Wall-clock time one step (start, the prompt, shutdown) may take, not counting time waiting for the user. */
  stepDeadlineMs?: number;
  /** The session's changes: every run is a turn, between a snapshot before the agent starts and one after it ends. */
  turns?: TurnRecorder;
  /** Where runs are kept so their cards survive a restart (the session's event log); in memory only without it. */
  runLog?: AgentRunLog;
  /** How much output one agent may send: chunks and characters per second, each with a burst. */
  outputRate?: { chunksPerSecond: number; chunkBurst: number; charsPerSecond: number; charBurst: number };
}

/** A started agent of either kind: a WASM module in its child process, or a native program in the OS sandbox. */
type RunningAgent = WasmAgent | NativeAgent | LlmAgent;

/** Generous for any agent that talks to a person (10k chunks/s reach the DOM), a brake on one that floods. */
const DEFAULT_OUTPUT_RATE = { chunksPerSecond: 20_000, chunkBurst: 5_000, charsPerSecond: 8 * 1024 * 1024, charBurst: 2 * 1024 * 1024 };

const DEFAULT_STEP_DEADLINE_MS = 120_000;

function toInfo(agent: CatalogAgent): AgentInfo {
  const { manifest } = agent;
  return {
    name: manifest.name,
    version: manifest.version,
    sandbox: manifest.sandbox,
    capabilities: [...manifest.capabilities],
    oauthScopes: manifest.oauthScopes.map((s) => `${s.provider}:${s.scope}`),
    uiHints: [...manifest.uiHints],
    cpuMillicores: manifest.resources.cpuMillicores,
    memBytes: manifest.resources.memBytes,
    source: agent.source,
    folder: agent.folder,
    manifestSha256: agent.manifestSha256,
    warnings: warningsOf(agent.report).map(formatIssue),
    description: manifest.description,
    examplePrompt: manifest.examplePrompt,
    internal: manifest.uiHints.includes(INTERNAL_HINT),
  };
}

/**
 * Runs agents in sessions (agent-instructions §3, §4): finds the agent in the registry, starts it in the WASM
 * sandbox, hands it the prompt as an `input` event, and turns what it does into the run's events (state changes,
 * output chunks with the card they belong to, artifacts, state updates, errors), kept for replay. Each start, user
 * action and end is a ledger entry.
 */
export class AgentRuntime implements Disposable {
  private readonly runs = new Map<string, AgentRun>();
  private readonly agents = new Map<string, RunningAgent>();
  /** WASM runs whose writes are held until the turn completes (spawn_agent). */
  private readonly staging = new Map<string, StagedWorkspaceFiles>();
  private readonly now: () => number;
  private sandbox: WasmSandbox | undefined;
  private readonly denials: Disposable | undefined;

  constructor(private readonly options: AgentRuntimeOptions) {
    this.now = options.now ?? Date.now;
    // A refused capability use goes on the card of that agent's live run in the session (its newest, should there be two).
    if (typeof options.ledger.onDidAppend === 'function') {
      this.denials = followDenials(
        options.ledger,
        (sessionId, agent, call, answered) => this.liveRunOf(sessionId, agent)?.refused(call, answered),
        (sessionId, agent, capability) => this.liveRunOf(sessionId, agent)?.granted(capability),
      );
    }
  }

  private get wasm(): WasmSandbox {
    return (this.sandbox ??= this.options.sandbox());
  }

  list(): { agents: AgentInfo[]; broken: BrokenAgent[]; warnings: string[] } {
    const catalog = this.options.registry.refresh();
    // Someone looking at the agents is likely to start one: have a process ready.
    if (catalog.agents.length > 0) void this.wasm;
    return {
      agents: catalog.agents.map(toInfo),
      broken: catalog.invalid.map((found) => ({
        folder: found.folder,
        source: found.source,
        errors: errorsOf(found.report).map(formatIssue),
      })),
      warnings: catalog.warnings,
    };
  }

  private liveRunOf(sessionId: string, agent: string): AgentRun | undefined {
    return [...this.runs.values()].filter((run) => !run.ended && run.info.sessionId === sessionId && run.info.agent === agent).at(-1);
  }

  /** The session's runs: this host's, and those an earlier host logged (over, or closed as interrupted). */
  runsOf(sessionId: string): AgentRunInfo[] {
    const here = [...this.runs.values()].filter((run) => run.info.sessionId === sessionId).map((run) => run.info);
    const logged = this.options.runLog?.runsOf(sessionId).filter((info) => !this.runs.has(info.id)) ?? [];
    return [...logged, ...here];
  }

  get(runId: string): AgentRun {
    const run = this.runs.get(runId);
    if (run) return run;
    // Not rebuilt into `runs`: an earlier host's run is over, and its events stay on disk rather than in memory.
    const logged = this.options.runLog?.load(runId);
    if (logged) return AgentRun.fromLog(logged.info, logged.events);
    throw new DomainError('not_found', `no agent run with id ${runId}`);
  }

  /** The installed agent of that name (the registry looked at again first), or undefined. */
  find(agentName: string): CatalogAgent | undefined {
    this.options.registry.refresh();
    return this.options.registry.get(agentName);
  }

  start(sessionId: string, agentName: string, prompt: string, actor: string): AgentRunInfo {
    const agent = this.find(agentName);
    if (!agent) throw new DomainError('not_found', `no agent named "${agentName}" is installed (see the Agents view, or \`omni agent list\`)`);
    return this.startAgent(sessionId, agent, prompt, actor);
  }

  /**
   * spawn_agent's turn: runs `agent` with the turn's prompts, deadline and (WASM) staged writes. The run is returned
   * at once; its `ended` event carries the outcome, its output events the agent's output.
   */
  startTurn(sessionId: string, agent: CatalogAgent, turn: AgentTurn, actor: string): AgentRun {
    return this.launch(sessionId, agent, composeTurnPrompt(turn), actor, turn);
  }

  /** Starts `agent` (from the registry, or a folder the headless runner was pointed at) in the session. */
  startAgent(sessionId: string, agent: CatalogAgent, prompt: string, actor: string): AgentRunInfo {
    return this.launch(sessionId, agent, prompt, actor, null).info;
  }

  private launch(sessionId: string, agent: CatalogAgent, prompt: string, actor: string, turn: AgentTurn | null): AgentRun {
    const session = this.options.sessions.getOpen(sessionId);
    const run = new AgentRun({
      id: newId('run'),
      sessionId,
      agent: agent.manifest.name,
      prompt,
      state: 'Registered',
      outcome: 'running',
      startedAt: this.now(),
      endedAt: null,
      error: null,
      deniedCalls: 0,
      grantsGiven: 0,
    }, turn);
    this.runs.set(run.info.id, run);
    this.options.runLog?.record(run);
    this.options.ledger.append({
      type: 'agent.start',
      actor,
      sessionId,
      payload: { runId: run.info.id, agent: agent.manifest.name, version: agent.manifest.version, manifestSha256: agent.manifestSha256, sandbox: agent.manifest.sandbox, source: agent.source },
    });
    void this.execute(run, agent, session.workspace);
    return run;
  }

  stop(runId: string, actor: string): AgentRunInfo {
    const run = this.get(runId);
    if (run.ended) return run.info;
    this.options.ledger.append({ type: 'agent.stop', actor, sessionId: run.info.sessionId, payload: { runId } });
    run.stopping = true;
    const agent = this.agents.get(runId);
    if (agent) agent.kill('stopped by the user');
    else this.finish(run, 'stopped', { code: 'stopped', message: 'stopped by the user before it started', hint: null });
    return run.info;
  }

  suspend(runId: string, actor: string): AgentRunInfo {
    return this.pauseOrResume(runId, actor, 'Active', 'Suspended', (agent) => agent.suspend());
  }

  resume(runId: string, actor: string): AgentRunInfo {
    return this.pauseOrResume(runId, actor, 'Suspended', 'Active', (agent) => agent.resume());
  }

  /** The user's Suspend or Resume: the process is stopped or continued, the lifecycle moves, the ledger records it. */
  private pauseOrResume(runId: string, actor: string, from: 'Active' | 'Suspended', to: 'Active' | 'Suspended', act: (agent: RunningAgent) => void): AgentRunInfo {
    const run = this.get(runId);
    const agent = this.agents.get(runId);
    const verb = to === 'Suspended' ? 'suspended' : 'resumed';
    if (!agent || run.lifecycle.state !== from) throw new DomainError('state', `the run is ${run.lifecycle.state}; only a ${from} run can be ${verb}`);
    act(agent);
    run.lifecycle.move(to, 'user');
    this.options.ledger.append({ type: to === 'Suspended' ? 'agent.suspend' : 'agent.resume', actor, sessionId: run.info.sessionId, payload: { runId } });
    return run.info;
  }

  private async execute(run: AgentRun, agent: CatalogAgent, workspace: string): Promise<void> {
    const turn = await this.options.turns?.beginTurn(run.info.sessionId, { kind: 'agent_run', id: run.info.id }, agent.manifest.name, run.info.prompt);
    try {
      await this.executeAgent(run, agent, workspace);
    } finally {
      // After the staged writes are committed or dropped: the snapshot sees what the run left in the workspace.
      await turn?.end();
    }
  }

  private async executeAgent(run: AgentRun, agent: CatalogAgent, workspace: string): Promise<void> {
    const { manifest } = agent;
    const agentId = manifest.name;
    let running: RunningAgent | undefined;
    try {
      run.lifecycle.move('Initialized', 'host');
      if (isModelAgentEntry(manifest.entry)) running = await startLlmAgent({ host: this.options.llm, agent, run, credentials: this.options.credentials, deadlineMs: this.deadlineOf(run), files: () => this.workspaceFor(run, workspace) });
      else running = manifest.sandbox === 'native' ? await this.startNative(run, agent, workspace) : await this.startWasm(run, agent, workspace);
      if (!running) return;
      this.agents.set(run.info.id, running);
      this.follow(run, running, manifest.uiHints);
      if (run.ended) return;
      run.lifecycle.move('Active', 'host');
      // A spawned turn's prompts and options also go field by field (`spawn`), for agents that read them as JSON.
      const spawn = run.turn ? { spawn: turnInputFields(run.turn) } : {};
      await running.invoke({ schema_version: EVENT_SCHEMA_VERSION, type: 'input', agent_id: agentId, prompt: this.promptWithBacklog(run), context_refs: [], ...spawn });
      await running.shutdown();
      this.commitStaged(run);
      this.finish(run, 'completed', null);
    } catch (error) {
      if (error instanceof ModuleRefusedError) {
        this.finish(run, 'failed', { code: error.code, message: error.message, hint: 'fix the agent: its manifest and its module must agree (see docs/agent-runtime.md)' });
      } else if (error instanceof AgentStoppedError) {
        const outcome = error.reason === 'timeout' || error.reason === 'cpu_budget' || error.reason === 'memory_limit' ? error.reason : error.reason === 'killed' ? 'stopped' : 'failed';
        this.finish(run, outcome, { code: error.reason, message: error.message, hint: error.hint || null });
      } else if (error instanceof LlmError || error instanceof LlmConfigError) {
        this.finish(run, 'failed', { code: error.code, message: error.message, hint: error.hint });
      } else {
        this.finish(run, 'failed', { code: 'internal', message: error instanceof Error ? error.message : String(error), hint: 'see the host log' });
      }
    } finally {
      this.agents.delete(run.info.id);
      running?.dispose();
      this.dropStaged(run);
    }
  }

  /** A completed turn's held-back WASM writes go to the workspace (each file atomically), recorded in the ledger. */
  private commitStaged(run: AgentRun): void {
    const staged = this.staging.get(run.info.id);
    if (!staged) return;
    this.staging.delete(run.info.id);
    const { committed, conflicts } = staged.commit();
    if (committed.length + conflicts.length === 0) return;
    for (const conflict of conflicts) run.push({ kind: 'output', cardId: 'log', cardKind: 'log', contentType: 'text/x-log', language: null, data: `not written: ${conflict.message}` });
    this.options.ledger.append({ type: 'agent.writes_committed', actor: 'host', sessionId: run.info.sessionId, payload: { runId: run.info.id, agent: run.info.agent, paths: committed, conflicts } });
  }

  /** A turn that did not complete (timeout, kill, failure) leaves nothing of its WASM writes in the workspace. */
  private dropStaged(run: AgentRun): void {
    const staged = this.staging.get(run.info.id);
    if (!staged) return;
    this.staging.delete(run.info.id);
    const paths = staged.stagedPaths;
    staged.discard();
    if (paths.length > 0) this.options.ledger.append({ type: 'agent.writes_dropped', actor: 'host', sessionId: run.info.sessionId, payload: { runId: run.info.id, agent: run.info.agent, paths } });
  }

  /** The user's prompt, followed by what the session's runs reported since the last turn (taken: delivered once). */
  private promptWithBacklog(run: AgentRun): string {
    const backlog = this.options.takeBacklog?.(run.info.sessionId) ?? [];
    if (backlog.length === 0) return run.info.prompt;
    run.push({ kind: 'output', cardId: 'log', cardKind: 'log', contentType: 'text/x-log', language: null, data: `delivered ${backlog.length} run event${backlog.length === 1 ? '' : 's'} from the session's backlog with the prompt` });
    return `${run.info.prompt}\n\nEvents from this session's command runs since your last turn:\n${backlog.map((line) => `- ${line}`).join('\n')}`;
  }

  private startWasm(run: AgentRun, agent: CatalogAgent, workspace: string): Promise<WasmAgent> {
    const { manifest } = agent;
    return this.wasm.start({
      files: this.workspaceFor(run, workspace),
      agentId: manifest.name,
      sessionId: run.info.sessionId,
      workspaceRoot: workspace,
      workspaceName: basename(workspace),
      module: readFileSync(manifest.entryPath),
      capabilities: manifest.capabilities,
      limits: { memBytes: manifest.resources.memBytes, cpuMillicores: manifest.resources.cpuMillicores, deadlineMs: this.deadlineOf(run), deadlineSpansSteps: run.turn !== undefined },
      outputPacing: this.outputPacing(),
    });
  }

  /** The workspace as a run's host calls see it: a spawned turn's writes are staged until the turn completes. */
  private workspaceFor(run: AgentRun, workspace: string): WorkspaceFiles {
    if (!run.turn?.stageWrites) return new WorkspaceFiles(workspace);
    const files = new StagedWorkspaceFiles(workspace);
    this.staging.set(run.info.id, files);
    return files;
  }

  /**
   * A native agent runs only with the user's explicit consent (a per-action process.exec prompt naming the program
   * and what it declares), and then inside the native sandbox. Undefined when the user said no (the run is finished).
   */
  private async startNative(run: AgentRun, agent: CatalogAgent, workspace: string): Promise<NativeAgent | undefined> {
    const native = this.options.native;
    const { manifest } = agent;
    const agentId = manifest.name;
    const { sessionId } = run.info;
    if (!native) {
      this.finish(run, 'failed', { code: 'native_unavailable', message: `"${agentId}" asks for the native sandbox, which this host was started without`, hint: 'run it in the app, or rebuild it for the WASM sandbox' });
      return undefined;
    }
    const declared = manifest.capabilities.length > 0 ? manifest.capabilities.join(', ') : 'no capabilities';
    const action = `run natively: ${manifest.entryPath}`;
    const allowed = await native.consent.ask({
      agentId,
      sessionId,
      capability: 'process.exec',
      action,
      reason: `"${agentId}" ${manifest.version} is a native program (sandbox = "native"), not a WASM module; it runs in the OS sandbox with ${declared}`,
      // The user picks once or for how long; an allowance covers this exact program only.
      durationS: 600,
      signal: run.stopSignal,
    });
    if (allowed.decision !== 'allow') {
      this.finish(run, 'failed', { code: 'capability_denied', message: `running "${agentId}" natively was not allowed: ${allowed.reason}`, hint: 'allow it on the consent card, or use a WASM agent' });
      return undefined;
    }
    const sandbox = native.sandbox();
    const networkDomains = native.consent
      .list(sessionId)
      .filter((grant) => grant.agentId === agentId && grant.capability === 'network' && grant.status === 'live' && grant.scope)
      .map((grant) => grant.scope!);
    // A granted connection: the proxy's variables (a dummy key) and the bridge to the proxy inside the sandbox.
    const access = await proxyAccessFor({ agentId, sessionId, capabilities: manifest.capabilities, consent: native.consent, credentials: this.options.credentials, signal: run.stopSignal });
    for (const note of access.notes) run.push({ kind: 'output', cardId: 'log', cardKind: 'log', contentType: 'text/x-log', language: null, data: note });
    const launch = await sandbox.prepareLaunch({
      argv: [manifest.entryPath],
      cwd: workspace,
      workspace,
      env: { ...access.env, OMNI_AGENT_ID: agentId, OMNI_SESSION_ID: sessionId, OMNI_EVENT_SCHEMA: EVENT_SCHEMA_VERSION },
      network: networkDomains.length > 0 ? { allowDomains: networkDomains } : null,
      localServices: access.bridge ? [access.bridge] : undefined,
      resources: { memBytes: manifest.resources.memBytes, cpuMillicores: manifest.resources.cpuMillicores, pids: 256, cpuSeconds: Math.ceil(this.deadlineOf(run) / 1000) },
      readOnlyPaths: [agent.folder],
      stageWrites: true,
      label: run.info.id,
    });
    this.options.ledger.append({ type: 'agent.native_launch', actor: 'host', sessionId, payload: { runId: run.info.id, agent: agentId, entry: manifest.entryPath, enforced: launch.enforced, connections: access.connections.map((c) => c.capability) } });
    return new NativeAgent({
      agentId,
      launch,
      deadlineMs: this.deadlineOf(run),
      askConsent: async ({ capability, reason, durationS }) => {
        if (!(manifest.capabilities as readonly string[]).includes(capability)) return { granted: false, expiresAt: null };
        const outcome = await native.consent.ask({ agentId, sessionId, capability, reason, durationS, signal: run.stopSignal });
        return { granted: outcome.decision === 'allow', expiresAt: outcome.grant?.expiresAt ?? null };
      },
    });
  }

  private get stepDeadlineMs(): number {
    return this.options.stepDeadlineMs ?? DEFAULT_STEP_DEADLINE_MS;
  }

  /** A spawned turn's own timeout (spawn_agent's timeout_seconds), else the host's step deadline. */
  private deadlineOf(run: AgentRun): number {
    return run.turn?.deadlineMs ?? this.stepDeadlineMs;
  }

  /** Token buckets for one run's output (event protocol §4): the wait before the agent's output call returns. */
  private outputPacing(): (chunk: { data: string }) => number {
    const rate = this.options.outputRate ?? DEFAULT_OUTPUT_RATE;
    const chunks = new TokenBucket(rate.chunksPerSecond, rate.chunkBurst);
    const chars = new TokenBucket(rate.charsPerSecond, rate.charBurst);
    return (chunk) => Math.max(chunks.take(1), chars.take(chunk.data.length));
  }

  /** Turns the sandbox's callbacks into the run's events. */
  private follow(run: AgentRun, wasm: RunningAgent, hints: readonly string[]): void {
    wasm.calls.onOutput((chunk) => {
      const { kind, language } = cardKindOf(chunk.contentType, hints);
      run.push({ kind: 'output', cardId: chunk.chunkId ?? 'main', cardKind: kind, contentType: chunk.contentType, language, data: chunk.data });
    });
    wasm.calls.onArtifact((artifact) => run.push({ kind: 'artifact', id: artifact.id, artifactKind: artifact.kind, path: artifact.path, previewHint: artifact.previewHint }));
    wasm.calls.onState((update) => run.push({ kind: 'state_update', key: update.key, value: update.value, scope: update.scope === 'session' ? 'session' : 'agent' }));
    wasm.onLog((line) => run.push({ kind: 'output', cardId: 'log', cardKind: 'log', contentType: 'text/x-log', language: null, data: line.text }));
  }

  private finish(run: AgentRun, outcome: AgentRunInfo['outcome'], error: AgentRunInfo['error']): void {
    if (run.ended) return;
    if (error) run.push({ kind: 'error', code: error.code, message: error.message, hint: error.hint });
    // The ledger tells its listeners after each commit (batched): commit now, so the run hears of every use refused
    // before its end (followDenials) and its record counts them.
    if (typeof this.options.ledger.flush === 'function') this.options.ledger.flush();
    if (run.lifecycle.canMove('Terminated')) run.lifecycle.move('Terminated', outcome === 'completed' ? 'completed' : outcome === 'stopped' ? 'user' : outcome === 'failed' ? 'error' : 'resource_limit', error?.message);
    run.end({ outcome, error }, this.now());
    this.options.ledger.append({ type: 'agent.end', actor: 'host', sessionId: run.info.sessionId, payload: { runId: run.info.id, agent: run.info.agent, outcome, error: error?.code ?? null } });
  }

  dispose(): void {
    this.denials?.dispose();
    for (const agent of this.agents.values()) agent.kill('the host is shutting down');
    this.sandbox?.dispose();
  }
}
