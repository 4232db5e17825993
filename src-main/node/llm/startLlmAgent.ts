import { join } from 'node:path';
import type { LedgerAppend } from '../ledger/ledger';
import { AgentHostCalls } from '../sandbox/wasm/agentHostCalls';
import type { AgentStore } from '../sandbox/wasm/agentStore';
import type { SandboxConsent } from '../sandbox/wasm/sandboxConsent';
import type { WorkspaceFiles } from '../sandbox/wasm/workspaceFiles';
import type { CatalogAgent } from '../agents/registry/agentCatalog';
import { proxyAccessFor, type AgentCredentialBroker } from '../agents/runtime/credentialAccess';
import type { AgentRun } from '../agents/runtime/agentRun';
import { AnthropicMessagesClient } from './anthropicMessagesClient';
import { LlmAgent } from './llmAgent';
import { readLlmAgentDefinition } from './llmAgentDefinition';
import { LlmConfigError, LlmError } from './llmErrors';
import type { ModelApi, ModelClient, ModelUsage } from './modelClient';
import { loadModelConfig, MODEL_CONFIG_FILE, resolveModel } from './modelConfig';
import { OpenAiChatClient } from './openaiChatClient';
import { OpenAiResponsesClient } from './openaiResponsesClient';
import { WORKSPACE_TOOLS, WorkspaceTools } from './workspaceTools';

/** What the runtime gives model-backed agents (AgentRuntimeOptions.llm). */
export interface LlmAgentHost {
  /** Grants for the connection, and for the workspace tools' file calls. */
  consent: SandboxConsent;
  /** The WASM agents' store: the tools run as their host calls, which are made with it. */
  store: AgentStore;
  /** The ledger's append: tool writes are recorded as a WASM agent's are (agent.file_write). */
  audit: (entry: LedgerAppend) => void;
  /** `<home>/llm-models.json` (modelConfigPath); read at each start, so an edit applies to the next run. */
  modelConfigFile: string;
}

export function modelConfigPath(home: string): string {
  return join(home, MODEL_CONFIG_FILE);
}

export function clientFor(api: ModelApi): ModelClient {
  switch (api) {
    case 'anthropic-messages':
      return new AnthropicMessagesClient();
    case 'openai-responses':
      return new OpenAiResponsesClient();
    case 'openai-chat':
      return new OpenAiChatClient();
  }
}

export interface LlmAgentStart {
  /** Undefined for a runtime made without it (the headless runner): the run fails saying so. */
  host: LlmAgentHost | undefined;
  agent: CatalogAgent;
  run: Pick<AgentRun, 'info' | 'turn' | 'stopSignal' | 'addTokens' | 'push'>;
  credentials: AgentCredentialBroker | undefined;
  deadlineMs: number;
  /** The run's view of the workspace (a spawned turn's is staged), made only for an agent with tools. */
  files: () => WorkspaceFiles;
}

/**
 * Prepares a model-backed agent's run: reads its definition (the manifest's *.llm.toml entry), checks the manifest
 * declares the connection it uses, gets the user's grant and a handle for it (credentialAccess.ts: the proxy's URL
 * and a dummy key, never the key), and resolves model_hint to a model (llm-models.json, the agent's [models], the
 * built-in defaults). Every problem is a typed error saying what to fix.
 */
export async function startLlmAgent(start: LlmAgentStart): Promise<LlmAgent> {
  const { manifest } = start.agent;
  const { host, run } = start;
  if (!host) throw new LlmError('connection_unavailable', `"${manifest.name}" is a model-backed agent, which this host was started without`, 'run it in the app');
  const definition = readLlmAgentDefinition(manifest.entryPath);
  const capability = `oauth:${definition.provider}.api`;
  const manifestFile = join(start.agent.folder, 'manifest.toml');
  if (!(manifest.capabilities as readonly string[]).includes(capability)) {
    throw new LlmConfigError(
      manifestFile,
      'capabilities',
      `the agent talks to ${definition.provider} (${manifest.entry}) but does not declare ${capability}`,
      `add "${capability}" to capabilities and "${definition.provider}:api" to oauth_scopes`,
    );
  }
  for (const tool of definition.tools) {
    const needed = WORKSPACE_TOOLS[tool].capability;
    if (!(manifest.capabilities as readonly string[]).includes(needed)) {
      throw new LlmConfigError(manifestFile, 'capabilities', `the agent offers the model ${tool} (${manifest.entry}) but does not declare ${needed}`, `add "${needed}" to capabilities, or take ${tool} out of tools`);
    }
  }
  // Read before any consent card: a broken file is reported without making the user answer first.
  const config = loadModelConfig(host.modelConfigFile);
  const access = await proxyAccessFor({ agentId: manifest.name, sessionId: run.info.sessionId, capabilities: [capability], consent: host.consent, credentials: start.credentials, signal: run.stopSignal });
  for (const note of access.notes) run.push({ kind: 'output', cardId: 'log', cardKind: 'log', contentType: 'text/x-log', language: null, data: note });
  const connection = access.connections[0];
  if (!connection) {
    throw new LlmError('connection_unavailable', `"${manifest.name}" cannot reach ${definition.provider}: ${access.notes.join('; ') || 'no connection'}`, `connect ${definition.provider} in Connections and allow ${capability} for this agent`);
  }
  const model = resolveModel({
    config,
    provider: definition.provider,
    connectionId: connection.connectionId,
    hint: run.turn?.modelHint ?? definition.modelHint,
    agent: { file: definition.file, models: definition.models, api: definition.api },
    maxTokens: run.turn?.maxTokens ?? definition.maxTokens,
  });
  return new LlmAgent({
    client: clientFor(model.api),
    endpoint: connection.endpoint,
    provider: definition.provider,
    model,
    defaultSystemPrompt: definition.systemPrompt,
    deadlineMs: start.deadlineMs,
    onUsage: (usage: ModelUsage) => {
      run.addTokens(usage.inputTokens + usage.outputTokens);
      // What each call cost, in the audit ledger beside the proxy's request entry (never a prompt or an answer).
      host.audit({
        type: 'agent.model_usage',
        actor: `agent:${manifest.name}`,
        sessionId: run.info.sessionId,
        payload: { runId: run.info.id, provider: definition.provider, api: model.api, model: model.model, hint: model.hint, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
      });
    },
    tools: definition.tools.length > 0 ? new WorkspaceTools(hostFileCalls(start, host), definition.tools) : null,
  });
}

/** The WASM agents' host calls over the run's workspace: the tools' reads and writes are checked exactly as theirs. */
function hostFileCalls(start: LlmAgentStart, host: LlmAgentHost): AgentHostCalls {
  const { manifest } = start.agent;
  return new AgentHostCalls({
    agentId: manifest.name,
    sessionId: start.run.info.sessionId,
    declared: new Set(manifest.capabilities),
    consent: host.consent,
    files: start.files(),
    store: host.store,
    audit: host.audit,
  });
}
