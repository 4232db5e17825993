// spawn_agent's contract, field for field as spec/host-interface-v3.1.md §1 writes it. The implementation
// (spawnAgent.ts), the orchestrator and the UI wiring all build against these names; change them only with the spec.
import type { JsonValue } from './sessionState';

export type ModelHint = 'fast' | 'smart';

/** What the host passes back into an agent after the user answered its checkpoint ("User replied: …"). */
export interface ResumeData {
  checkpoint_id: string;
  user_input: JsonValue;
}

export interface SpawnAgentOptions {
  model_hint?: ModelHint;
  /** Whole-agent wall clock, not counting time spent waiting at a checkpoint. */
  timeout_seconds?: number;
  max_tokens?: number;
  resume_data?: ResumeData;
}

export type AgentResponseStatus = 'success' | 'timeout' | 'error' | 'checkpoint';

export interface AgentResponse {
  status: AgentResponseStatus;
  /** The raw output; for status "checkpoint", the checkpoint signal as JSON (spec §2). */
  data: string;
  metadata: {
    tokens_used: number;
    duration_ms: number;
  };
}

/** Which session (and so which workspace, grants and cards) a spawn belongs to; not part of the spec's signature. */
export interface SpawnContext {
  sessionId: string;
  /** Who asked: "user", "host", or the orchestrator's agent id. Recorded in the ledger. */
  actor: string;
  /** Aborting it ends the agent like a timeout does, but the response says "error" (halted by the user). */
  signal?: AbortSignal;
}

export type SpawnAgent = (
  agent_name: string,
  system_prompt: string,
  user_message: string,
  options: SpawnAgentOptions,
  context: SpawnContext,
) => Promise<AgentResponse>;
