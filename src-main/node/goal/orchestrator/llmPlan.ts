import { z } from 'zod';
import { fieldProblems } from '../metaShell/schemaProblems';
import { PlanError, TASK_ID_PATTERN, type PlannedTask } from './plannedTask';
import { validateTaskGraph } from './taskGraph';

export const LLM_PLAN_SOURCE = 'planner output';

/** What the planner agent is asked to answer (its system prompt quotes this). */
export const LLM_PLAN_FORMAT =
  'Answer with JSON only: {"tasks":[{"id":"01","title":"Setup project","dependencies":[],"instructions":"…"},' +
  '{"id":"02","title":"…","dependencies":["01"]}]}. Ids are short (letters, digits . _ -), dependencies name earlier ids, ' +
  'and the tasks must form no cycle. Optional per task: "agent" (executor agent name), "verifier" (agent name or "none").';

const id = z.union([z.string(), z.number().int().nonnegative()]).transform((value) => String(value).trim()).pipe(z.string().regex(TASK_ID_PATTERN, 'must be letters, digits and . _ - (e.g. "01")'));
const agentName = z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be an agent name (letters, digits and . _ -)');

const TaskSchema = z.object({
  id,
  title: z.string().trim().min(1, 'must say what the task does'),
  dependencies: z.array(id).default([]),
  agent: agentName.optional(),
  verifier: agentName.optional(),
  instructions: z.string().optional(),
});
// A bare array is read as {tasks: [...]}, so problems are named by the same paths either way.
const PlanSchema = z.preprocess((value) => (Array.isArray(value) ? { tasks: value } : value), z.object({ tasks: z.array(TaskSchema) }));

/**
 * The planner agent's answer as tasks. Forgiving about the wrapping (a ```json fence, prose around the JSON, a bare
 * array, numeric ids), strict about the content: every problem is named by field ("tasks.1.dependencies.0 …").
 */
export function parseLlmPlan(data: string): PlannedTask[] {
  const json = extractJson(data);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new PlanError(LLM_PLAN_SOURCE, `is not JSON (${(error as Error).message}); the planner must answer ${LLM_PLAN_FORMAT}`);
  }
  const parsed = PlanSchema.safeParse(value);
  if (!parsed.success) {
    const problems = fieldProblems(parsed.error).map((p) => `"${p.field}" ${p.problem}`);
    throw new PlanError(LLM_PLAN_SOURCE, `${problems.slice(0, 5).join('; ')}; expected ${LLM_PLAN_FORMAT}`);
  }
  const tasks: PlannedTask[] = parsed.data.tasks.map((task) => ({
    id: task.id,
    title: task.title,
    dependencies: [...new Set(task.dependencies)],
    ...(task.agent ? { agent: task.agent } : {}),
    ...(task.verifier ? { verifier: task.verifier } : {}),
    ...(task.instructions?.trim() ? { instructions: task.instructions.trim() } : {}),
  }));
  validateTaskGraph(tasks, LLM_PLAN_SOURCE, (i) => ({ where: `tasks.${i}` }));
  return tasks;
}

/** The JSON inside the answer: a fenced block if there is one, else from the first { or [ to the last } or ]. */
function extractJson(data: string): string {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/i.exec(data);
  if (fenced) return fenced[1].trim();
  const start = data.search(/[{[]/);
  const end = Math.max(data.lastIndexOf('}'), data.lastIndexOf(']'));
  if (start < 0 || end < start) throw new PlanError(LLM_PLAN_SOURCE, `has no JSON in it (it begins "${data.trim().slice(0, 80)}"); the planner must answer ${LLM_PLAN_FORMAT}`);
  return data.slice(start, end + 1);
}
