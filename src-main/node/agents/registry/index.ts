// The registry's public face: what the runtime and the CLI use.
export { agentKey, buildCatalog, type AgentCatalog, type CatalogAgent } from './agentCatalog';
export { bundledAgentsDir, userAgentsDir } from './agentFolders';
export { AgentRegistry, type AgentRegistryOptions } from './agentRegistry';
export type { AgentRoot, AgentSource } from './agentSource';
export { discoverAgents, type DiscoveredAgent } from './discoverAgents';
export { AGENT_REGISTER, lastRegistrations } from './registrationRecords';
