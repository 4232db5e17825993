/** Where an agent was found: shipped with the app (assets/agents) or installed by the user (<home>/agents). */
export type AgentSource = 'bundled' | 'user';

/** A folder whose sub-folders are agents. */
export interface AgentRoot {
  source: AgentSource;
  dir: string;
}
