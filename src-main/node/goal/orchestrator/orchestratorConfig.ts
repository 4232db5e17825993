import type { PlannerMode } from './planners';

/** How goal runs are driven; every field has a default (DEFAULT_ORCHESTRATOR_CONFIG). */
export interface OrchestratorConfig {
  /** The agent names spawn_agent is asked for, per role. A task can name its own executor and verifier. */
  agents: { planner: string; executor: string; verifier: string };
  /** "auto": context.md's "## Plan" if it has one, else the planner agent. */
  planner: PlannerMode;
  /** Failed verifications in a row (gapCount) at which the circuit breaker halts the run. */
  gapThreshold: number;
  /** spawn_agent's timeout_seconds for every agent of a run (undefined: spawn_agent's default). */
  timeoutSeconds?: number;
  /** How often a waiting checkpoint is looked up (answers may come from another window or the CLI). */
  answerPollMs: number;
}

export const DEFAULT_ORCHESTRATOR_CONFIG: OrchestratorConfig = {
  agents: { planner: 'planner', executor: 'executor', verifier: 'verifier' },
  planner: 'auto',
  gapThreshold: 3,
  answerPollMs: 200,
};

export function resolveConfig(partial: Partial<Omit<OrchestratorConfig, 'agents'>> & { agents?: Partial<OrchestratorConfig['agents']> } = {}): OrchestratorConfig {
  const config = { ...DEFAULT_ORCHESTRATOR_CONFIG, ...partial, agents: { ...DEFAULT_ORCHESTRATOR_CONFIG.agents, ...partial.agents } };
  if (!Number.isInteger(config.gapThreshold) || config.gapThreshold < 1) {
    throw new RangeError(`gapThreshold must be a whole number of at least 1 (failed verifications before the circuit breaker halts), got ${config.gapThreshold}`);
  }
  return config;
}
