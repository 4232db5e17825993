import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import type { ModelHint } from '../goal/metaShell/spawnAgentTypes';
import { LlmConfigError } from './llmErrors';
import { maxTokens, parseChoice, type ModelChoice } from './modelConfig';
import { MODEL_APIS, type ModelApi } from './modelClient';
import { WORKSPACE_TOOL_NAMES, type WorkspaceToolName } from './workspaceTools';

/** A manifest whose `entry` ends so declares a model-backed agent: the entry is its definition, not a program. */
export const MODEL_AGENT_ENTRY_SUFFIX = '.llm.toml';

export function isModelAgentEntry(entry: string): boolean {
  return entry.toLowerCase().endsWith(MODEL_AGENT_ENTRY_SUFFIX);
}

/** An agent's `<name>.llm.toml`: which connection it talks to and how. */
export interface LlmAgentDefinition {
  file: string;
  /** The provider of the connection it uses (its manifest must declare oauth:<provider>.api). */
  provider: string;
  /** null: the provider's usual API (or llm-models.json's). */
  api: ModelApi | null;
  /** Used when a run brings none (a start from the Agents view; spawn_agent brings its own). */
  systemPrompt: string;
  modelHint: ModelHint;
  maxTokens: number | undefined;
  models: ModelChoice;
  /** Workspace tools the model may call (each needs its files.* capability in the manifest); empty: text only. */
  tools: WorkspaceToolName[];
}

const KNOWN_KEYS = ['provider', 'api', 'system_prompt', 'model_hint', 'max_tokens', 'models', 'tools'];
const MAX_SYSTEM_PROMPT = 200_000;

/** Reads and checks a definition; every problem is an LlmConfigError naming the file and the key. */
export function readLlmAgentDefinition(file: string): LlmAgentDefinition {
  let table: Record<string, unknown>;
  try {
    table = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new LlmConfigError(file, '(file)', `is not readable TOML: ${(error as Error).message.split('\n')[0]}`, 'fix the syntax: provider = "anthropic", then the optional keys');
  }
  for (const key of Object.keys(table)) {
    if (!KNOWN_KEYS.includes(key)) throw new LlmConfigError(file, key, 'is not a known key', `use ${KNOWN_KEYS.join(', ')}`);
  }
  const { provider, api, system_prompt: systemPrompt, model_hint: hint, max_tokens: max, models, tools } = table;
  if (typeof provider !== 'string' || !/^[a-z][a-z0-9_-]{0,63}$/.test(provider)) {
    throw new LlmConfigError(file, 'provider', `expected a provider id, found ${JSON.stringify(provider)}`, 'e.g. provider = "anthropic", "openai" or "openai-compatible" (and declare oauth:<provider>.api in the manifest)');
  }
  if (api !== undefined && !MODEL_APIS.includes(api as ModelApi)) {
    throw new LlmConfigError(file, 'api', `expected one of ${MODEL_APIS.join(', ')}, found ${JSON.stringify(api)}`, 'or leave it out for the provider\'s usual API');
  }
  if (systemPrompt !== undefined && (typeof systemPrompt !== 'string' || systemPrompt.length > MAX_SYSTEM_PROMPT)) {
    throw new LlmConfigError(file, 'system_prompt', `expected text of at most ${MAX_SYSTEM_PROMPT} characters`, 'write it as a TOML string ("""…""" for several lines)');
  }
  if (hint !== undefined && hint !== 'fast' && hint !== 'smart') {
    throw new LlmConfigError(file, 'model_hint', `expected "fast" or "smart", found ${JSON.stringify(hint)}`, 'the default hint for runs that bring none');
  }
  if (tools !== undefined && (!Array.isArray(tools) || tools.some((tool) => !WORKSPACE_TOOL_NAMES.includes(tool as WorkspaceToolName)))) {
    throw new LlmConfigError(file, 'tools', `expected a list of ${WORKSPACE_TOOL_NAMES.join(', ')}, found ${JSON.stringify(tools)}`, 'e.g. tools = ["read_file", "write_file"], or leave it out for a text-only agent');
  }
  return {
    file,
    provider,
    api: (api as ModelApi | undefined) ?? null,
    systemPrompt: (systemPrompt as string | undefined) ?? '',
    modelHint: (hint as ModelHint | undefined) ?? 'smart',
    maxTokens: max === undefined ? undefined : maxTokens(file, 'max_tokens', max),
    models: models === undefined ? {} : parseChoice(file, 'models', models),
    tools: [...new Set((tools as WorkspaceToolName[] | undefined) ?? [])],
  };
}
