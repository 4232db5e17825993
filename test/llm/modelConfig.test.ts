// model_hint → model: llm-models.json per connection and per provider, the agent's own [models], the built-in
// defaults; every broken file or value is refused with an error naming the file and the key.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readLlmAgentDefinition } from '../../src-main/node/llm/llmAgentDefinition';
import { LlmConfigError } from '../../src-main/node/llm/llmErrors';
import { loadModelConfig, resolveModel, type ModelChoice } from '../../src-main/node/llm/modelConfig';
import { tempDir } from '../helpers';

function configFile(t: { after(fn: () => void): void }, content: unknown): string {
  const dir = tempDir('llmcfg');
  t.after(dir.cleanup);
  const file = join(dir.path, 'llm-models.json');
  if (content !== undefined) writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const agent = (models: ModelChoice = {}) => ({ file: '/agents/a/agent.llm.toml', models, api: null });

test('without a file: the built-in fast and smart models for Anthropic and OpenAI, with their APIs', (t) => {
  const config = loadModelConfig(configFile(t, undefined));
  const pick = (provider: string, hint: 'fast' | 'smart') => resolveModel({ config, provider, connectionId: 'conn_x', hint, agent: agent(), maxTokens: undefined });
  assert.deepEqual(
    [pick('anthropic', 'fast'), pick('anthropic', 'smart'), pick('openai', 'fast'), pick('openai', 'smart')].map((m) => [m.model, m.api, m.maxTokens]),
    [
      ['claude-haiku-4-5', 'anthropic-messages', 4096],
      ['claude-sonnet-4-5', 'anthropic-messages', 4096],
      ['gpt-5-mini', 'openai-responses', 4096],
      ['gpt-5', 'openai-responses', 4096],
    ],
  );
});

test('the connection beats the provider, which beats the agent, which beats the defaults; max_tokens from the turn wins', (t) => {
  const config = loadModelConfig(
    configFile(t, { providers: { anthropic: { fast: 'claude-from-provider', max_tokens: 900 } }, connections: { conn_mine: { smart: 'claude-from-connection' } } }),
  );
  const pick = (hint: 'fast' | 'smart', connectionId: string, models: ModelChoice = {}, maxTokens?: number) =>
    resolveModel({ config, provider: 'anthropic', connectionId, hint, agent: agent(models), maxTokens });
  assert.equal(pick('smart', 'conn_mine').model, 'claude-from-connection');
  assert.equal(pick('smart', 'conn_other').model, 'claude-sonnet-4-5');
  assert.equal(pick('smart', 'conn_other', { smart: 'claude-from-agent' }).model, 'claude-from-agent');
  assert.equal(pick('fast', 'conn_mine', { fast: 'claude-from-agent' }).model, 'claude-from-provider');
  assert.equal(pick('fast', 'conn_mine').maxTokens, 900);
  assert.equal(pick('fast', 'conn_mine', {}, 123).maxTokens, 123);
  assert.match(pick('fast', 'conn_mine').source, /llm-models\.json providers\.anthropic$/);
});

test('an OpenAI-compatible server has no defaults: the error names the file and the key to add', (t) => {
  const file = configFile(t, undefined);
  const config = loadModelConfig(file);
  assert.throws(
    () => resolveModel({ config, provider: 'openai-compatible', connectionId: 'conn_ollama', hint: 'fast', agent: agent(), maxTokens: undefined }),
    (error: unknown) => error instanceof LlmConfigError && error.file === file && error.key === 'providers.openai-compatible.fast' && /no model is configured for model_hint "fast"/.test(error.message) && /connections/.test(error.hint),
  );
  const configured = loadModelConfig(configFile(t, { connections: { conn_ollama: { fast: 'llama3.2:3b', smart: 'qwen2.5:32b' } } }));
  const smart = resolveModel({ config: configured, provider: 'openai-compatible', connectionId: 'conn_ollama', hint: 'smart', agent: agent(), maxTokens: undefined });
  assert.deepEqual([smart.model, smart.api], ['qwen2.5:32b', 'openai-chat']);
});

test('broken files and values are refused naming the file and the key', (t) => {
  const cases: [unknown, string, RegExp][] = [
    ['{ not json', '(file)', /is not JSON/],
    [[1, 2], '(file)', /expected a JSON object/],
    [{ provider: {} }, 'provider', /not a known key/],
    [{ providers: { anthropic: { fast: '' } } }, 'providers.anthropic.fast', /expected a model name/],
    [{ providers: { anthropic: { fast: 'two words' } } }, 'providers.anthropic.fast', /expected a model name/],
    [{ providers: { anthropic: { smrt: 'x' } } }, 'providers.anthropic.smrt', /not a known key/],
    [{ providers: { openai: { api: 'openai-completions' } } }, 'providers.openai.api', /expected one of anthropic-messages, openai-responses, openai-chat/],
    [{ connections: { conn_a: { max_tokens: 0 } } }, 'connections.conn_a.max_tokens', /whole number from 1/],
    [{ connections: { conn_a: { max_tokens: 2.5 } } }, 'connections.conn_a.max_tokens', /whole number from 1/],
    [{ connections: [] }, 'connections', /expected an object/],
  ];
  for (const [content, key, problem] of cases) {
    const file = configFile(t, content);
    assert.throws(
      () => loadModelConfig(file),
      (error: unknown) => error instanceof LlmConfigError && error.file === file && error.key === key && problem.test(error.message) && error.message.startsWith(`${file}: ${key}: `),
      JSON.stringify(content),
    );
  }
});

test('an agent definition: provider required, known keys only, hints and models checked, naming the key', (t) => {
  const dir = tempDir('llmdef');
  t.after(dir.cleanup);
  const write = (text: string) => {
    const file = join(dir.path, 'agent.llm.toml');
    writeFileSync(file, text);
    return file;
  };
  const good = readLlmAgentDefinition(write('provider = "anthropic"\nsystem_prompt = "Be brief."\nmodel_hint = "fast"\nmax_tokens = 512\n[models]\nsmart = "claude-opus-4-1"\n'));
  assert.deepEqual([good.provider, good.api, good.systemPrompt, good.modelHint, good.maxTokens, good.models], ['anthropic', null, 'Be brief.', 'fast', 512, { smart: 'claude-opus-4-1' }]);
  const defaults = readLlmAgentDefinition(write('provider = "openai"\n'));
  assert.deepEqual([defaults.modelHint, defaults.maxTokens, defaults.systemPrompt], ['smart', undefined, '']);
  const bad: [string, string][] = [
    ['system_prompt = "x"\n', 'provider'],
    ['provider = "Anthropic Inc"\n', 'provider'],
    ['provider = "anthropic"\nmodel_hint = "quick"\n', 'model_hint'],
    ['provider = "anthropic"\napi = "messages"\n', 'api'],
    ['provider = "anthropic"\nmax_tokens = -1\n', 'max_tokens'],
    ['provider = "anthropic"\nmodel = "x"\n', 'model'],
    ['provider = "anthropic"\n[models]\nfast = 3\n', 'models.fast'],
    ['provider = "anthropic\n', '(file)'],
  ];
  for (const [text, key] of bad) {
    const file = write(text);
    assert.throws(() => readLlmAgentDefinition(file), (error: unknown) => error instanceof LlmConfigError && error.key === key && error.file === file, text);
  }
});
