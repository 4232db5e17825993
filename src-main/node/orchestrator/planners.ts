import type { AgentResponse, SpawnAgentOptions } from '../host/spawnAgentTypes';
import type { AgentCallRequest } from './agentCall';
import { hasContextPlan, parseContextPlan } from './contextPlan';
import { LLM_PLAN_SOURCE, parseLlmPlan } from './llmPlan';
import { PlanError, type PlannedTask } from './plannedTask';
import { PLANNER_SYSTEM_PROMPT } from './rolePrompts';

export interface PlanInput {
  /** context.md's text. */
  context: string;
  /** buildStatePrompt's "Current State: Phase 1 (Planning), Context: …". */
  statePrompt: string;
  /** spawn_agent with checkpoint handling (callAgent), for planners that ask an agent. */
  call: (request: AgentCallRequest) => Promise<AgentResponse>;
  /** spawn_agent options of the run (timeout_seconds), for planners that ask an agent. */
  options: SpawnAgentOptions;
}

/** Turns the goal in context.md into tasks forming a DAG; throws PlanError saying what is wrong. */
export interface Planner {
  readonly kind: 'deterministic' | 'llm';
  plan(input: PlanInput): Promise<PlannedTask[]>;
}

/** Offline: the user wrote the plan in context.md's "## Plan" section (format in contextPlan.ts). */
export class DeterministicPlanner implements Planner {
  readonly kind = 'deterministic';
  plan(input: PlanInput): Promise<PlannedTask[]> {
    return Promise.resolve(parseContextPlan(input.context));
  }
}

/** spawn_agent(plannerAgent, …) answers a JSON task list, validated by parseLlmPlan. */
export class LlmPlanner implements Planner {
  readonly kind = 'llm';
  constructor(private readonly agent: string) {}

  async plan(input: PlanInput): Promise<PlannedTask[]> {
    const response = await input.call({
      role: 'planner',
      taskId: null,
      agent: this.agent,
      systemPrompt: PLANNER_SYSTEM_PROMPT,
      userMessage: input.statePrompt,
      options: { ...input.options, model_hint: 'smart' },
    });
    if (response.status !== 'success') {
      throw new PlanError(LLM_PLAN_SOURCE, `the planner agent "${this.agent}" ended with "${response.status}" instead of a plan: ${response.data.slice(0, 300) || '(no output)'}`);
    }
    return parseLlmPlan(response.data);
  }
}

/** "auto": a "## Plan" section in context.md means the user planned it; otherwise the planner agent does. */
export type PlannerMode = 'auto' | 'deterministic' | 'llm';

export function choosePlanner(mode: PlannerMode, context: string, plannerAgent: string): Planner {
  const kind = mode === 'auto' ? (hasContextPlan(context) ? 'deterministic' : 'llm') : mode;
  return kind === 'deterministic' ? new DeterministicPlanner() : new LlmPlanner(plannerAgent);
}
