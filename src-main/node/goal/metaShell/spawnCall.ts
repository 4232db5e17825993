import type { SpawnAgentOptions } from './spawnAgentTypes';

/** spawn_agent's arguments as one value: what a resume (or the orchestrator's retry) calls spawn_agent with again. */
export interface SpawnCall {
  agent_name: string;
  system_prompt: string;
  user_message: string;
  options: SpawnAgentOptions;
}
