import type { CheckpointResumer } from './checkpointResumer';
import type { CheckpointRef } from './checkpointStore';
import type { JsonValue } from './sessionState';
import type { SpawnCall } from './spawnCall';
import type { AgentResponse, SpawnAgent, SpawnContext } from './spawnAgentTypes';

/**
 * The resume path of a checkpoint: once the user answered it (CheckpointStore.answer), spawn_agent runs the same call
 * again with `resume_data: {checkpoint_id, user_input}` (the agent sees "User replied: <answer>"), exactly once however
 * many callers ask (CheckpointResumer); every caller gets the same AgentResponse. `timeoutSeconds` replaces the call's
 * own (the orchestrator passes what is left of the budget). A resume that threw (the agent was uninstalled meanwhile)
 * is an "error" response with the stored message.
 */
export async function resumeSpawn(
  spawn: SpawnAgent,
  resumer: CheckpointResumer,
  ref: CheckpointRef,
  call: SpawnCall,
  context: SpawnContext,
  timeoutSeconds?: number,
): Promise<AgentResponse> {
  const outcome = await resumer.resumeOnce(ref, async ({ answer }) => {
    const options = { ...call.options, ...(timeoutSeconds === undefined ? {} : { timeout_seconds: timeoutSeconds }), resume_data: { checkpoint_id: ref.resumeId, user_input: answer } };
    const response = await spawn(call.agent_name, call.system_prompt, call.user_message, options, context);
    return response as unknown as JsonValue;
  });
  if (outcome.ok) return outcome.value as unknown as AgentResponse;
  return { status: 'error', data: `resuming after checkpoint "${ref.resumeId}" failed: ${outcome.error}`, metadata: { tokens_used: 0, duration_ms: 0 } };
}
