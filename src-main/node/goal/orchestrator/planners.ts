import { UnknownAgentError } from '../metaShell/spawnAgentErrors';
import type { AgentResponse, SpawnAgentOptions } from '../metaShell/spawnAgentTypes';
import type { AgentCallRequest } from './agentCall';
import { CONTEXT_SOURCE, hasContextPlan, parseContextPlan } from './contextPlan';
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
    let response: AgentResponse;
    try {
      response = await input.call({
        role: 'planner',
        taskId: null,
        agent: this.agent,
        systemPrompt: PLANNER_SYSTEM_PROMPT,
        userMessage: input.statePrompt,
        options: { ...input.options, model_hint: 'smart' },
      });
    } catch (error) {
      // No planner agent is installed (none is bundled: a model-backed one needs the user's connection). Say how to
      // go on instead of passing on spawn_agent's lookup error alone.
      if (error instanceof UnknownAgentError) {
        throw new PlanError(CONTEXT_SOURCE, `${hasContextPlan(input.context) ? 'the run is set to plan with an agent, but' : 'has no "## Plan" section, and'} no planner agent "${this.agent}" is installed to plan the goal; ${howToPlan(this.agent)}`);
      }
      throw error;
    }
    if (response.status !== 'success') {
      // Without a usable connection the reason (its first line: what is missing and the hint) is kept whole.
      const noModel = /\(connection_unavailable\)/.test(response.data);
      const said = noModel ? `${response.data.split('\n', 1)[0].slice(0, 800)}; ${howToPlan(this.agent)}` : response.data.slice(0, 300) || '(no output)';
      throw new PlanError(LLM_PLAN_SOURCE, `the planner agent "${this.agent}" ended with "${response.status}" instead of a plan: ${said}`);
    }
    return parseLlmPlan(response.data);
  }
}

/** What a user without a working planner agent can do. */
function howToPlan(agent: string): string {
  return `write a "## Plan" section in .meta/context.md (a task per line, e.g. "- [01] Setup project", with instruction lines the bundled executor runs; see docs/orchestrator.md), or add a model connection in Connections and an LLM planner agent named "${agent}" (docs/llm-agents.md)`;
}

/** "auto": a "## Plan" section in context.md means the user planned it; otherwise the planner agent does. */
export type PlannerMode = 'auto' | 'deterministic' | 'llm';

export function choosePlanner(mode: PlannerMode, context: string, plannerAgent: string): Planner {
  const kind = mode === 'auto' ? (hasContextPlan(context) ? 'deterministic' : 'llm') : mode;
  return kind === 'deterministic' ? new DeterministicPlanner() : new LlmPlanner(plannerAgent);
}
