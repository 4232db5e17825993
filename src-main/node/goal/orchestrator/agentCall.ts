import type { TurnRecorder } from '../../changes/turnRecorder';
import type { CheckpointResumer } from '../metaShell/checkpointResumer';
import { parseCheckpointSignal, CheckpointSignalError } from '../metaShell/checkpointSignal';
import type { CheckpointRef, CheckpointStore } from '../metaShell/checkpointStore';
import type { MetaState } from '../metaShell/metaState';
import type { ProgressLog } from '../metaShell/progressLog';
import { resumeSpawn } from '../metaShell/resumeSpawn';
import type { AgentResponse, SpawnAgent, SpawnAgentOptions } from '../metaShell/spawnAgentTypes';
import { patchRecord, readRecord, type CheckpointRole } from './goalRunRecord';
import { haltableDelay, throwIfHalted } from './runHalted';

export interface AgentCallDeps {
  sessionId: string;
  spawnAgent: SpawnAgent;
  checkpoints: CheckpointStore;
  resumer: CheckpointResumer;
  progress: ProgressLog;
  meta: MetaState;
  signal: AbortSignal;
  /** How often the store is looked at while a checkpoint waits for its answer (it may come from another process). */
  answerPollMs: number;
  /** Told when the run starts or stops waiting for the user. */
  onWaiting: (waiting: boolean) => void;
  /** The session's changes: a task's call is a turn (`goal_task`), checkpoint waits and resumes included. */
  turns?: TurnRecorder;
}

export interface AgentCallRequest {
  role: Exclude<CheckpointRole, 'breaker'>;
  taskId: string | null;
  agent: string;
  systemPrompt: string;
  userMessage: string;
  options: SpawnAgentOptions;
}

/** A response the orchestrator made itself (the agent never produced one): an answer it could not use. */
const hostError = (data: string): AgentResponse => ({ status: 'error', data, metadata: { tokens_used: 0, duration_ms: 0 } });

/**
 * spawn_agent with the host's side of checkpoints (spec §2): when the agent answers "checkpoint", the question is
 * raised in the CheckpointStore (durable, shown to the user), the run waits for the answer, and the agent is spawned
 * again with resume_data {checkpoint_id: resume_id, user_input: answer} through spawn_agent's resume path
 * (resumeSpawn, on CheckpointResumer.resumeOnce), so a double click or a restart never resumes it twice. The checkpoint is also kept in session.json, so a halted or
 * restarted run goes back to waiting on it instead of asking the agent again. Returns the first response that is not
 * a checkpoint.
 */
export async function callAgent(deps: AgentCallDeps, request: AgentCallRequest): Promise<AgentResponse> {
  // Planning changes no files of the task's: only a task's calls are turns. The snapshot before is taken first.
  const turn = request.taskId === null ? undefined : await deps.turns?.beginTurn(deps.sessionId, { kind: 'goal_task', id: request.taskId }, request.agent, `Task ${request.taskId} (${request.role})`);
  try {
    return await callAgentThroughCheckpoints(deps, request);
  } finally {
    await turn?.end();
  }
}

async function callAgentThroughCheckpoints(deps: AgentCallDeps, request: AgentCallRequest): Promise<AgentResponse> {
  const context = { sessionId: deps.sessionId, actor: 'host', signal: deps.signal };
  // Halt aborts `signal`: spawn_agent then stops the agent and drops its writes, and only then answers, so a halt
  // that resolves has really ended the agent (its answer is awaited, not raced).
  const spawn = (options: SpawnAgentOptions) => deps.spawnAgent(request.agent, request.systemPrompt, request.userMessage, options, context);
  const recorded = readRecord(await deps.meta.read()).checkpoint;
  let next: { spawn: SpawnAgentOptions } | { await: string } =
    recorded && recorded.role === request.role && recorded.taskId === request.taskId && recorded.agent === request.agent
      ? { await: recorded.resumeId }
      : { spawn: request.options };
  for (;;) {
    let response: AgentResponse;
    if ('spawn' in next) {
      throwIfHalted(deps.signal);
      response = await spawn(next.spawn);
      throwIfHalted(deps.signal);
    } else {
      const ref = { sessionId: deps.sessionId, resumeId: next.await };
      await waitForAnswer(deps, ref);
      // spawn_agent's resume path: the same call with resume_data, run once however many callers ask.
      const call = { agent_name: request.agent, system_prompt: request.systemPrompt, user_message: request.userMessage, options: request.options };
      response = await resumeSpawn(deps.spawnAgent, deps.resumer, ref, call, context);
      await patchRecord(deps.meta, (r) => delete r.checkpoint);
      throwIfHalted(deps.signal);
    }
    if (response.status !== 'checkpoint') return response;

    let signal;
    try {
      signal = parseCheckpointSignal(response.data);
    } catch (error) {
      if (!(error instanceof CheckpointSignalError)) throw error;
      return hostError(`${request.agent} asked a question the host cannot show: ${error.message}`);
    }
    const record = deps.checkpoints.raise(deps.sessionId, signal, request.agent);
    const options = signal.options.length > 0 ? ` (${signal.options.join(' | ')})` : '';
    deps.progress.log(deps.sessionId, `${label(request)}: ${request.agent} asks: ${signal.message}${options}`, 'warn');
    if (record.status === 'resumed') {
      // Asked again after a halt cut the resumed run short: the user answered this already, so it gets that answer.
      deps.progress.log(deps.sessionId, `${label(request)}: "${signal.resume_id}" was answered before; resuming ${request.agent} with that answer`);
      next = { spawn: { ...request.options, resume_data: { checkpoint_id: signal.resume_id, user_input: record.answer } } };
    } else {
      await patchRecord(deps.meta, (r) => (r.checkpoint = { resumeId: signal.resume_id, agent: request.agent, role: request.role, taskId: request.taskId }));
      next = { await: signal.resume_id };
    }
  }
}

/** Polls the store until the checkpoint is no longer pending (answered here, in another window, or by the CLI). */
async function waitForAnswer(deps: AgentCallDeps, ref: CheckpointRef): Promise<void> {
  if (deps.checkpoints.get(ref)?.status !== 'pending') return;
  deps.onWaiting(true);
  try {
    while (deps.checkpoints.get(ref)?.status === 'pending') await haltableDelay(deps.answerPollMs, deps.signal);
  } finally {
    deps.onWaiting(false);
  }
}

const label = (request: AgentCallRequest): string => (request.taskId === null ? 'Planning' : `Task ${request.taskId}`);
