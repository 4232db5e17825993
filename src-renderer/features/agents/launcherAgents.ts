import type { AgentInfo } from '../../../src-preload/contract';

/** The agents a person starts by hand: internal ones (ui.hints "internal", e.g. the goal run's executor) are left out. */
export function launcherAgents(agents: readonly AgentInfo[]): AgentInfo[] {
  return agents.filter((agent) => !agent.internal);
}

/** Only reads: nothing it does can change the workspace or reach the network, so it is the safe first pick. */
const readsOnly = (agent: AgentInfo): boolean => agent.oauthScopes.length === 0 && agent.capabilities.every((c) => c === 'files.read');

/**
 * The launcher's pick before the user chose one: a bundled agent that only reads (a safe first try), else the first
 * bundled one, else the first listed. Undefined when there is none.
 */
export function defaultAgent(agents: readonly AgentInfo[]): AgentInfo | undefined {
  const bundled = agents.filter((agent) => agent.source === 'bundled');
  return bundled.find(readsOnly) ?? bundled[0] ?? agents[0];
}
