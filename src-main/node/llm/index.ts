// Model-backed agents (docs/llm-agents.md): what the agent runtime and the host composition use.
export type { LlmAgent } from './llmAgent';
export { isModelAgentEntry, MODEL_AGENT_ENTRY_SUFFIX } from './llmAgentDefinition';
export { LlmConfigError, LlmError, type LlmErrorCode } from './llmErrors';
export { modelConfigPath, startLlmAgent, type LlmAgentHost } from './startLlmAgent';
