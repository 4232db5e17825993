import type { CheckpointResumer } from './checkpointResumer';
import { waitForCheckpointAnswer } from './checkpointAnswerWait';
import { parseCheckpointSignal } from './checkpointSignal';
import type { CheckpointRef, CheckpointStore } from './checkpointStore';
import { resumeSpawn } from './resumeSpawn';
import type { SpawnCall } from './spawnCall';
import { DEFAULT_TIMEOUT_SECONDS } from './spawnAgentInput';
import type { AgentResponse, SpawnAgent, SpawnContext } from './spawnAgentTypes';

export interface ThroughCheckpointsOptions {
  /** Told each time the agent stops at a checkpoint, before the wait (the question is already in the store). */
  onCheckpoint?: (ref: CheckpointRef, response: AgentResponse) => void;
  /** Checkpoints one call may raise in a row before it is given up as an agent that only asks. */
  maxCheckpoints?: number;
  pollMs?: number;
}

const DEFAULT_MAX_CHECKPOINTS = 20;

/**
 * The orchestrator's side of spec §2: spawn the agent; while it stops at a checkpoint, pause, wait for the user's
 * answer, and resume it with the answer (exactly once, resumeSpawn), until it ends otherwise. `timeout_seconds` is a
 * budget for the agent's own running time across all its turns: time spent waiting for the user is not counted (the
 * timer is paused at the checkpoint), and each resumed turn gets what is left. The response's metadata is the sum
 * over the turns (tokens, and running time without the waits).
 */
export async function spawnThroughCheckpoints(
  deps: { spawn: SpawnAgent; checkpoints: CheckpointStore; resumer: CheckpointResumer },
  call: SpawnCall,
  context: SpawnContext,
  options: ThroughCheckpointsOptions = {},
): Promise<AgentResponse> {
  const budgetMs = (call.options.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  let response = await deps.spawn(call.agent_name, call.system_prompt, call.user_message, call.options, context);
  let tokens = response.metadata.tokens_used;
  let ranMs = response.metadata.duration_ms;
  const total = (last: AgentResponse): AgentResponse => ({ ...last, metadata: { tokens_used: tokens, duration_ms: ranMs } });

  const answered = new Set<string>();
  for (let asked = 1; response.status === 'checkpoint'; asked++) {
    if (asked > (options.maxCheckpoints ?? DEFAULT_MAX_CHECKPOINTS)) {
      return total({ ...response, status: 'error', data: `"${call.agent_name}" stopped at ${asked - 1} checkpoints in a row without finishing; given up (the last one: ${response.data})` });
    }
    const ref = { sessionId: context.sessionId, resumeId: parseCheckpointSignal(response.data).resume_id };
    // A resume_id is single-use: the same question again would only get the stored resume back, forever.
    if (answered.has(ref.resumeId)) {
      return total({ ...response, status: 'error', data: `"${call.agent_name}" asked checkpoint "${ref.resumeId}" again after it was answered; a resume_id is single-use (the agent must pick a new one)` });
    }
    answered.add(ref.resumeId);
    options.onCheckpoint?.(ref, response);
    try {
      await waitForCheckpointAnswer(deps.checkpoints, ref, { signal: context.signal, pollMs: options.pollMs });
    } catch (error) {
      if (!context.signal?.aborted) throw error;
      return total({ status: 'error', data: `"${call.agent_name}" was halted while waiting for the answer to checkpoint "${ref.resumeId}" (it stays pending)`, metadata: response.metadata });
    }
    const leftMs = budgetMs - ranMs;
    if (leftMs <= 0) {
      return total({ status: 'timeout', data: `"${call.agent_name}" used its whole timeout of ${budgetMs / 1000} s before checkpoint "${ref.resumeId}"; it was not resumed`, metadata: response.metadata });
    }
    response = await resumeSpawn(deps.spawn, deps.resumer, ref, call, context, leftMs / 1000);
    tokens += response.metadata.tokens_used;
    ranMs += response.metadata.duration_ms;
  }
  return total(response);
}
