import type { JsonValue } from './sessionState';
import { SpawnAgentInputError } from './spawnAgentErrors';
import type { ModelHint, ResumeData, SpawnAgentOptions } from './spawnAgentTypes';

/** The spec's example timeout; a spawn that names none gets it. */
export const DEFAULT_TIMEOUT_SECONDS = 600;
/** A day: anything longer is a mistake in the caller (seconds taken for milliseconds), not a plan. */
export const MAX_TIMEOUT_SECONDS = 24 * 3600;
/** Prompts are text for a model or a program, not a data channel. */
const MAX_PROMPT_CHARS = 1_000_000;

/** spawn_agent's arguments, checked, with defaults applied. */
export interface SpawnRequest {
  agentName: string;
  systemPrompt: string;
  userMessage: string;
  modelHint?: ModelHint;
  timeoutSeconds: number;
  maxTokens?: number;
  resume?: ResumeData;
}

function text(field: string, value: unknown, allowEmpty: boolean): string {
  if (typeof value !== 'string') throw new SpawnAgentInputError(field, `must be a string, got ${value === null ? 'null' : typeof value}`);
  if (!allowEmpty && value.trim() === '') throw new SpawnAgentInputError(field, 'must not be empty');
  if (value.length > MAX_PROMPT_CHARS) throw new SpawnAgentInputError(field, `is ${value.length} characters; at most ${MAX_PROMPT_CHARS} are accepted`);
  return value;
}

function isJson(value: unknown, depth = 0): value is JsonValue {
  if (depth > 64) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value).every((item) => isJson(item, depth + 1));
  return false;
}

function resumeData(value: unknown): ResumeData {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SpawnAgentInputError('options.resume_data', 'must be an object {checkpoint_id, user_input}');
  const { checkpoint_id, user_input } = value as Record<string, unknown>;
  if (typeof checkpoint_id !== 'string' || checkpoint_id.trim() === '') {
    throw new SpawnAgentInputError('options.resume_data.checkpoint_id', "must be the checkpoint's resume_id (a non-empty string)");
  }
  if (user_input === undefined) throw new SpawnAgentInputError('options.resume_data.user_input', "is missing: pass the user's answer");
  if (!isJson(user_input)) throw new SpawnAgentInputError('options.resume_data.user_input', 'must be plain JSON (text, a number, a list or an object)');
  return { checkpoint_id, user_input };
}

/** Checks every argument and names the first bad one (SpawnAgentInputError); nothing runs for a bad request. */
export function parseSpawnRequest(agentName: unknown, systemPrompt: unknown, userMessage: unknown, options: unknown): SpawnRequest {
  const name = text('agent_name', agentName, false).trim();
  const request: SpawnRequest = {
    agentName: name,
    systemPrompt: text('system_prompt', systemPrompt, true),
    userMessage: text('user_message', userMessage, true),
    timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
  };
  if (options === undefined || options === null) return request;
  if (typeof options !== 'object' || Array.isArray(options)) throw new SpawnAgentInputError('options', 'must be an object');
  const { model_hint, timeout_seconds, max_tokens, resume_data } = options as SpawnAgentOptions & Record<string, unknown>;
  if (model_hint !== undefined) {
    if (model_hint !== 'fast' && model_hint !== 'smart') throw new SpawnAgentInputError('options.model_hint', `must be "fast" or "smart", got ${JSON.stringify(model_hint)}`);
    request.modelHint = model_hint;
  }
  if (timeout_seconds !== undefined) {
    if (typeof timeout_seconds !== 'number' || !Number.isFinite(timeout_seconds) || timeout_seconds <= 0) {
      throw new SpawnAgentInputError('options.timeout_seconds', `must be a positive number of seconds, got ${JSON.stringify(timeout_seconds)}`);
    }
    if (timeout_seconds > MAX_TIMEOUT_SECONDS) throw new SpawnAgentInputError('options.timeout_seconds', `is ${timeout_seconds} s; at most ${MAX_TIMEOUT_SECONDS} (a day) — seconds, not milliseconds`);
    request.timeoutSeconds = timeout_seconds;
  }
  if (max_tokens !== undefined) {
    if (typeof max_tokens !== 'number' || !Number.isInteger(max_tokens) || max_tokens <= 0) {
      throw new SpawnAgentInputError('options.max_tokens', `must be a positive whole number, got ${JSON.stringify(max_tokens)}`);
    }
    request.maxTokens = max_tokens;
  }
  if (resume_data !== undefined) request.resume = resumeData(resume_data);
  return request;
}
