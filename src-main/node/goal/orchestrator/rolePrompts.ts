import { LLM_PLAN_FORMAT } from './llmPlan';
import type { PlannedTask } from './plannedTask';
import { VERDICT_FORMAT } from './verdict';

/**
 * The system prompts of the three roles of a goal run. The user message of each is the state prompt
 * (buildStatePrompt: "Current State: Phase 1 (Executing Task 02), Context: …") followed by the task.
 */
export const PLANNER_SYSTEM_PROMPT =
  'You are the planner of a goal-driven coding session. Break the project described in the context into small tasks ' +
  'that can each be done and verified on their own, in dependency order. ' +
  LLM_PLAN_FORMAT;

export const EXECUTOR_SYSTEM_PROMPT =
  'You are the executor of one task of a goal-driven coding session. Do exactly this task in the workspace, nothing ' +
  'beyond it; the host commits your changes when you finish. If you need a decision or an action from the user, ' +
  'answer with a checkpoint signal instead of guessing.';

export const VERIFIER_SYSTEM_PROMPT =
  'You are the verifier of a goal-driven coding session. Check that the task was done completely and correctly in ' +
  'the workspace (read the files, run the checks). ' +
  VERDICT_FORMAT;

/** The task part of an executor's or verifier's message: id, title, instructions, and a retry's feedback. */
export function describeTask(task: PlannedTask, guidance: string | undefined): string {
  const parts = [`Task ${task.id}: ${task.title}`];
  if (task.instructions) parts.push(`Instructions:\n${task.instructions}`);
  if (guidance) parts.push(`An earlier attempt was not accepted. Address this:\n${guidance}`);
  return parts.join('\n\n');
}
