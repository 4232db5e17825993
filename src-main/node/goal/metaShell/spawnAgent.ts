import { createHash } from 'node:crypto';
import type { AgentRuntime } from '../../agents/runtime/agentRuntime';
import type { AgentTurn } from '../../agents/runtime/agentTurn';
import type { LedgerAppend } from '../../ledger/ledger';
import { waitForCheckpointAnswer } from './checkpointAnswerWait';
import { checkpointInOutput } from './checkpointInOutput';
import { CheckpointResumer } from './checkpointResumer';
import { CheckpointConflictError, type CheckpointRecord, type CheckpointRef, type CheckpointStore } from './checkpointStore';
import type { ProgressLevel, ProgressLog } from './progressLog';
import { ResumeDataError, UnknownAgentError } from './spawnAgentErrors';
import { parseSpawnRequest, type SpawnRequest } from './spawnAgentInput';
import type { AgentResponse, AgentResponseStatus, SpawnAgent, SpawnContext } from './spawnAgentTypes';
import type { SpawnCall } from './spawnCall';
import { spawnedRunResult, type SpawnedRunResult } from './spawnedRunResult';
import { resumeSpawn } from './resumeSpawn';
import { spawnThroughCheckpoints, type ThroughCheckpointsOptions } from './spawnThroughCheckpoints';

export interface SpawnAgentDeps {
  /** Runs the agent: finds it by name, starts the turn, stops it when the caller halts it. */
  runtime: Pick<AgentRuntime, 'find' | 'list' | 'startTurn' | 'stop'>;
  /** Where a checkpoint the agent raises is kept (durable: it survives a restart) until the user answers it. */
  checkpoints: CheckpointStore;
  /** spawn_agent's start and end entries (the ledger scrubs payloads before they are hashed). */
  audit: (entry: LedgerAppend) => void;
  /** log_progress: the user sees each spawn start and end. */
  progress?: ProgressLog;
  now?: () => number;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * spawn_agent (spec/host-interface-v3.1.md §1) over the agent runtime: any installed agent (WASM, native, and the
 * model-backed kind) runs one turn with the prompts and options, under `timeout_seconds` (time waiting for the user on
 * a consent card does not count). The answer is an AgentResponse:
 *
 * - success: the turn completed; `data` is the agent's output; its writes are in the workspace.
 * - timeout: the whole agent (its process tree) was killed at the deadline; its writes were dropped (native: the
 *   sandbox's overlay; WASM: StagedWorkspaceFiles), so nothing partial is visible in the workspace.
 * - checkpoint: the output was a checkpoint signal (spec §2); it is raised in the CheckpointStore (durable) and `data`
 *   is the signal as JSON. Resume with resumeSpawn / spawnThroughCheckpoints once the user answered.
 * - error: the agent failed, was halted (SpawnContext.signal), or sent a checkpoint the host cannot act on; `data`
 *   says why, then what it wrote before.
 *
 * Mistakes of the caller (an unknown agent, a malformed option, resume_data for a checkpoint not answered) throw
 * typed errors instead: nothing ran. Every spawn is two ledger entries, host.spawn_start and host.spawn_end.
 */
export class SpawnAgentService {
  private readonly now: () => number;
  /** Runs each checkpoint's resume once (CheckpointResumer over the same store). */
  readonly resumer: CheckpointResumer;

  constructor(private readonly deps: SpawnAgentDeps) {
    this.now = deps.now ?? Date.now;
    this.resumer = new CheckpointResumer(deps.checkpoints);
  }

  /**
   * The same spawn_agent (same runtime, store and ledger) timed by `now` instead of the wall clock: a test moves that
   * clock on to show how time passing at a checkpoint is counted, instead of waiting the time out.
   */
  withClock(now: () => number): SpawnAgentService {
    return new SpawnAgentService({ ...this.deps, now });
  }

  /** The checkpoints agents raised: `pending(sessionId)` for the dialog, `answer(ref, input)` when the user replies. */
  get checkpoints(): CheckpointStore {
    return this.deps.checkpoints;
  }

  readonly spawn: SpawnAgent = (agent_name, system_prompt, user_message, options, context) => this.run(parseSpawnRequest(agent_name, system_prompt, user_message, options), context);

  /** Resolves once the checkpoint is answered (at once if it was), with its record; see waitForCheckpointAnswer. */
  waitForAnswer(ref: CheckpointRef, signal?: AbortSignal): Promise<CheckpointRecord> {
    return waitForCheckpointAnswer(this.deps.checkpoints, ref, { signal });
  }

  /** After the user answered `ref`: `call` again with resume_data, exactly once (see resumeSpawn). */
  resume(ref: CheckpointRef, call: SpawnCall, context: SpawnContext, timeoutSeconds?: number): Promise<AgentResponse> {
    return resumeSpawn(this.spawn, this.resumer, ref, call, context, timeoutSeconds);
  }

  /** Spawn, and at each checkpoint pause (timer stopped), wait for the answer and resume, until the agent ends. */
  runThroughCheckpoints(call: SpawnCall, context: SpawnContext, options?: ThroughCheckpointsOptions): Promise<AgentResponse> {
    return spawnThroughCheckpoints({ spawn: this.spawn, checkpoints: this.deps.checkpoints, resumer: this.resumer }, call, context, options);
  }

  private async run(request: SpawnRequest, context: SpawnContext): Promise<AgentResponse> {
    const { runtime, checkpoints } = this.deps;
    const agent = runtime.find(request.agentName);
    if (!agent) throw new UnknownAgentError(request.agentName, runtime.list().agents.map((info) => info.name));
    if (request.resume) {
      const record = checkpoints.get({ sessionId: context.sessionId, resumeId: request.resume.checkpoint_id });
      if (!record) throw new ResumeDataError(request.resume.checkpoint_id, `was never raised in session ${context.sessionId}`);
      if (record.status === 'pending') throw new ResumeDataError(request.resume.checkpoint_id, 'has not been answered yet: answer it (CheckpointStore.answer) before resuming');
    }
    const turn: AgentTurn = {
      systemPrompt: request.systemPrompt,
      userMessage: request.userMessage,
      modelHint: request.modelHint,
      maxTokens: request.maxTokens,
      resume: request.resume ? { checkpointId: request.resume.checkpoint_id, userInput: request.resume.user_input } : undefined,
      deadlineMs: Math.round(request.timeoutSeconds * 1000),
      stageWrites: true,
    };
    const startedAt = this.now();
    if (context.signal?.aborted) return this.end(request, context, null, startedAt, { status: 'error', data: `"${request.agentName}" was halted before it started`, tokens: 0 });

    const run = runtime.startTurn(context.sessionId, agent, turn, context.actor);
    this.deps.audit({
      type: 'host.spawn_start',
      actor: context.actor,
      sessionId: context.sessionId,
      payload: {
        runId: run.info.id,
        agent: request.agentName,
        model_hint: request.modelHint ?? null,
        timeout_seconds: request.timeoutSeconds,
        max_tokens: request.maxTokens ?? null,
        resume_id: request.resume?.checkpoint_id ?? null,
        // The prompts themselves stay out of the ledger (they can quote anything); their hashes identify them.
        system_prompt_sha256: sha256(request.systemPrompt),
        user_message_sha256: sha256(request.userMessage),
      },
    });
    this.progress(context.sessionId, `Agent "${request.agentName}" started${request.resume ? ` (resuming after "${request.resume.checkpoint_id}")` : ''}`, 'info');

    let halted = false;
    const halt = (): void => {
      halted = true;
      runtime.stop(run.info.id, context.actor);
    };
    context.signal?.addEventListener('abort', halt, { once: true });
    try {
      const result = await spawnedRunResult(run);
      return this.end(request, context, run.info.id, startedAt, this.judge(request, context, result, halted));
    } finally {
      context.signal?.removeEventListener('abort', halt);
    }
  }

  /** What the run came to, as spawn_agent's status and data. */
  private judge(request: SpawnRequest, context: SpawnContext, result: SpawnedRunResult, halted: boolean): { status: AgentResponseStatus; data: string; tokens: number; resumeId?: string } {
    const name = `"${request.agentName}"`;
    const tokens = result.tokensUsed;
    const before = result.output.length > 0 ? `\n\nOutput before it stopped:\n${result.output}` : '';
    const { outcome, error } = result.info;
    if (outcome === 'completed') {
      const found = checkpointInOutput(result.output, result.lastChunk);
      if (found.kind === 'none') return { status: 'success', data: result.output, tokens };
      if (found.kind === 'invalid') return { status: 'error', data: `${name} sent a checkpoint the host cannot show: ${found.error.message}`, tokens };
      try {
        this.deps.checkpoints.raise(context.sessionId, found.signal, request.agentName);
      } catch (raiseError) {
        if (!(raiseError instanceof CheckpointConflictError)) throw raiseError;
        return { status: 'error', data: `${name} sent a checkpoint the host cannot show: ${raiseError.message}`, tokens };
      }
      return { status: 'checkpoint', data: JSON.stringify(found.signal), tokens, resumeId: found.signal.resume_id };
    }
    if (outcome === 'timeout') {
      return { status: 'timeout', data: `${name} ran past its timeout of ${request.timeoutSeconds} s: it was stopped with everything it started, and its writes were dropped${before}`, tokens };
    }
    if (halted) return { status: 'error', data: `${name} was halted by ${context.actor}: it was stopped with everything it started, and its writes were dropped${before}`, tokens };
    const why = error ? `${error.message}${error.hint ? ` (${error.hint})` : ''}` : outcome;
    return { status: 'error', data: `${name} failed (${error?.code ?? outcome}): ${why}${before}`, tokens };
  }

  private end(
    request: SpawnRequest,
    context: SpawnContext,
    runId: string | null,
    startedAt: number,
    verdict: { status: AgentResponseStatus; data: string; tokens: number; resumeId?: string },
  ): AgentResponse {
    const response: AgentResponse = { status: verdict.status, data: verdict.data, metadata: { tokens_used: verdict.tokens, duration_ms: Math.max(0, this.now() - startedAt) } };
    this.deps.audit({
      type: 'host.spawn_end',
      actor: 'host',
      sessionId: context.sessionId,
      payload: {
        runId,
        agent: request.agentName,
        status: response.status,
        tokens_used: response.metadata.tokens_used,
        duration_ms: response.metadata.duration_ms,
        resume_id: verdict.resumeId ?? null,
        // Why it did not succeed (the first line: the output itself stays out of the ledger).
        reason: response.status === 'error' || response.status === 'timeout' ? response.data.split('\n', 1)[0].slice(0, 500) : null,
      },
    });
    const name = `Agent "${request.agentName}"`;
    if (response.status === 'success') this.progress(context.sessionId, `${name} finished in ${(response.metadata.duration_ms / 1000).toFixed(1)} s`, 'info');
    else if (response.status === 'checkpoint') this.progress(context.sessionId, `${name} is waiting for your answer ("${verdict.resumeId}")`, 'info');
    else if (response.status === 'timeout') this.progress(context.sessionId, `${name} timed out after ${request.timeoutSeconds} s; its writes were dropped`, 'warn');
    else this.progress(context.sessionId, `${name}: ${response.data.split('\n', 1)[0]}`, 'error');
    return response;
  }

  private progress(sessionId: string, message: string, level: ProgressLevel): void {
    this.deps.progress?.log(sessionId, message, level);
  }
}
