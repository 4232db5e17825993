import { readFileSync } from 'node:fs';
import type { ModelHint } from '../goal/metaShell/spawnAgentTypes';
import { LlmConfigError } from './llmErrors';
import { MODEL_APIS, type ModelApi } from './modelClient';

/** The models `fast` and `smart` stand for, and optionally the API and a max_tokens default. */
export interface ModelChoice {
  fast?: string;
  smart?: string;
  api?: ModelApi;
  maxTokens?: number;
}

/** `<home>/llm-models.json`: the user's choices per provider and per connection (a connection's id wins). */
export interface ModelConfig {
  file: string;
  providers: Record<string, ModelChoice>;
  connections: Record<string, ModelChoice>;
}

/** What a model turn runs with, and where each part came from (for the run's log card). */
export interface ResolvedModel {
  api: ModelApi;
  model: string;
  hint: ModelHint;
  maxTokens: number;
  source: string;
}

export const MODEL_CONFIG_FILE = 'llm-models.json';
export const DEFAULT_MAX_TOKENS = 4096;
/** More than any model answers in one turn: a larger number is a mistake (a byte count, a typo). */
export const MAX_MAX_TOKENS = 1_000_000;
const MAX_MODEL_NAME = 200;

/**
 * Built in, so an Anthropic or OpenAI connection works with no file at all. An OpenAI-compatible server has no
 * defaults (its models are whatever the user pulled): its fast/smart must be configured.
 */
export const BUILT_IN_MODELS: Readonly<Record<string, ModelChoice>> = {
  anthropic: { api: 'anthropic-messages', fast: 'claude-haiku-4-5', smart: 'claude-sonnet-4-5' },
  openai: { api: 'openai-responses', fast: 'gpt-5-mini', smart: 'gpt-5' },
  'openai-compatible': { api: 'openai-chat' },
};

/** The API a provider's connections speak unless configured otherwise. */
export function defaultApiFor(provider: string): ModelApi {
  return BUILT_IN_MODELS[provider]?.api ?? 'openai-chat';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads `file` (missing: no choices, the built-in defaults apply). Every problem is an LlmConfigError naming the file
 * and the key, e.g. `providers.anthropic.fast: expected a model name`.
 */
export function loadModelConfig(file: string): ModelConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, providers: {}, connections: {} };
    throw new LlmConfigError(file, '(file)', `cannot be read: ${(error as Error).message}`, 'fix its permissions, or remove it to use the defaults');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new LlmConfigError(file, '(file)', `is not JSON: ${(error as Error).message}`, `write {"providers": {"anthropic": {"fast": "…", "smart": "…"}}}, or remove the file to use the defaults`);
  }
  if (!isObject(parsed)) throw new LlmConfigError(file, '(file)', 'expected a JSON object', 'write {"providers": {…}, "connections": {…}}');
  for (const key of Object.keys(parsed)) {
    if (key !== 'providers' && key !== 'connections') throw new LlmConfigError(file, key, 'is not a known key', 'use "providers" (by provider id) and "connections" (by connection id)');
  }
  return { file, providers: choicesAt(file, 'providers', parsed.providers), connections: choicesAt(file, 'connections', parsed.connections) };
}

function choicesAt(file: string, key: string, value: unknown): Record<string, ModelChoice> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new LlmConfigError(file, key, 'expected an object', `write "${key}": {"<id>": {"fast": "…", "smart": "…"}}`);
  const choices: Record<string, ModelChoice> = {};
  for (const [id, entry] of Object.entries(value)) choices[id] = parseChoice(file, `${key}.${id}`, entry);
  return choices;
}

/** One {fast, smart, api, max_tokens} table, from llm-models.json or an agent's .llm.toml `[models]`. */
export function parseChoice(file: string, key: string, value: unknown): ModelChoice {
  if (!isObject(value)) throw new LlmConfigError(file, key, 'expected an object like {"fast": "…", "smart": "…"}', 'give the model names for the two hints');
  const choice: ModelChoice = {};
  for (const [name, item] of Object.entries(value)) {
    const at = `${key}.${name}`;
    if (name === 'fast' || name === 'smart') {
      choice[name] = modelName(file, at, item);
    } else if (name === 'api') {
      if (!MODEL_APIS.includes(item as ModelApi)) throw new LlmConfigError(file, at, `expected one of ${MODEL_APIS.join(', ')}, found ${JSON.stringify(item)}`, 'anthropic-messages for Anthropic, openai-responses for OpenAI, openai-chat for OpenAI-compatible servers');
      choice.api = item as ModelApi;
    } else if (name === 'max_tokens') {
      choice.maxTokens = maxTokens(file, at, item);
    } else {
      throw new LlmConfigError(file, at, 'is not a known key', 'use fast, smart, api and max_tokens');
    }
  }
  return choice;
}

export function modelName(file: string, key: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_MODEL_NAME || /\s/.test(value)) {
    throw new LlmConfigError(file, key, `expected a model name (1 to ${MAX_MODEL_NAME} characters, no spaces), found ${JSON.stringify(value)}`, 'use the name the provider lists, e.g. "claude-haiku-4-5" or "llama3.2:3b"');
  }
  return value;
}

export function maxTokens(file: string, key: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_MAX_TOKENS) {
    throw new LlmConfigError(file, key, `expected a whole number from 1 to ${MAX_MAX_TOKENS}, found ${JSON.stringify(value)}`, 'e.g. 4096');
  }
  return value;
}

/**
 * The model for a turn: the connection's entry in llm-models.json, else the provider's there, else the agent's own
 * `[models]`, else the built-in default, per field. An unresolved hint names the keys that would resolve it.
 */
export function resolveModel(request: {
  config: ModelConfig;
  provider: string;
  connectionId: string | null;
  hint: ModelHint;
  agent: { file: string; models: ModelChoice; api: ModelApi | null };
  maxTokens: number | undefined;
}): ResolvedModel {
  const { config, provider, connectionId, hint, agent } = request;
  const layers: { choice: ModelChoice | undefined; where: string }[] = [
    { choice: connectionId ? config.connections[connectionId] : undefined, where: `${config.file} connections.${connectionId}` },
    { choice: config.providers[provider], where: `${config.file} providers.${provider}` },
    { choice: agent.models, where: `${agent.file} [models]` },
    { choice: BUILT_IN_MODELS[provider], where: 'the built-in defaults' },
  ];
  const found = layers.find((layer) => layer.choice?.[hint] !== undefined);
  if (!found) {
    throw new LlmConfigError(
      config.file,
      `providers.${provider}.${hint}`,
      `no model is configured for model_hint "${hint}" on ${provider}${connectionId ? ` (connection ${connectionId})` : ''}`,
      `add {"providers": {"${provider}": {"fast": "…", "smart": "…"}}} to ${config.file} (or "connections": {"${connectionId ?? '<id>'}": …}), or [models] ${hint} = "…" in ${agent.file}`,
    );
  }
  const api = layers.slice(0, 2).find((layer) => layer.choice?.api)?.choice?.api ?? agent.api ?? defaultApiFor(provider);
  const configuredMax = layers.find((layer) => layer.choice?.maxTokens !== undefined)?.choice?.maxTokens;
  return { api, model: found.choice![hint]!, hint, maxTokens: request.maxTokens ?? configuredMax ?? DEFAULT_MAX_TOKENS, source: found.where };
}
