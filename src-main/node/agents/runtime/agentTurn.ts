import type { JsonValue } from '../../goal/metaShell/sessionState';

/**
 * One turn of an agent as spawn_agent asks for it (spec/host-interface-v3.1.md §1): the two prompts and the options,
 * kept apart so every kind of agent gets them in the form it can use. A model-backed agent sends `systemPrompt` and
 * `userMessage` as separate messages with `modelHint` / `maxTokens`; a WASM or native program gets them joined into
 * the input event's `prompt` (composeTurnPrompt) and, structurally, as the event's `spawn` field (turnInputFields).
 */
export interface AgentTurn {
  systemPrompt: string;
  userMessage: string;
  modelHint?: 'fast' | 'smart';
  maxTokens?: number;
  /** The user's answer to a checkpoint this agent raised earlier ("User replied: …"). */
  resume?: { checkpointId: string; userInput: JsonValue };
  /** Wall-clock time the agent may run, not counting time waiting for the user (consent cards). */
  deadlineMs: number;
  /** WASM agents: their file writes are staged and reach the workspace only when the turn completes. */
  stageWrites: boolean;
}

/** The answer as the agent reads it: text as typed, anything else as JSON. */
export function describeUserInput(input: JsonValue): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/** The text prompt of a program agent: system prompt, user message, then the user's reply to its checkpoint. */
export function composeTurnPrompt(turn: AgentTurn): string {
  const parts = [turn.systemPrompt.trim(), turn.userMessage.trim()].filter((part) => part.length > 0);
  if (turn.resume) parts.push(`User replied: ${describeUserInput(turn.resume.userInput)}`);
  return parts.join('\n\n');
}

/**
 * The same, field by field, for an agent that reads its input event as JSON: the spec's names (snake_case), so an
 * agent can branch on `resume_data.checkpoint_id` instead of parsing the prompt text.
 */
export function turnInputFields(turn: AgentTurn): Record<string, JsonValue> {
  return {
    system_prompt: turn.systemPrompt,
    user_message: turn.userMessage,
    model_hint: turn.modelHint ?? null,
    max_tokens: turn.maxTokens ?? null,
    resume_data: turn.resume ? { checkpoint_id: turn.resume.checkpointId, user_input: turn.resume.userInput } : null,
  };
}
