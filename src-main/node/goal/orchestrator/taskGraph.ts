import { findDependencyCycle } from '../metaShell/dependencyCycle';
import { PlanError, type PlannedTask } from './plannedTask';

/** Where each task was written, so graph errors can point at the line (context.md) or the list index (planner). */
export type TaskLocator = (taskIndex: number) => { line?: number; where: string };

/**
 * Checks that the tasks form a DAG the loop can run: unique ids, every dependency names a task of the plan, no task
 * depends on itself, and no cycle. Throws PlanError naming the task (and line) at fault.
 */
export function validateTaskGraph(tasks: readonly PlannedTask[], source: string, locate: TaskLocator): void {
  if (tasks.length === 0) throw new PlanError(source, 'the plan has no tasks');
  const index = new Map<string, number>();
  tasks.forEach((task, i) => {
    const at = locate(i);
    if (index.has(task.id)) throw new PlanError(source, `${at.where} repeats task id "${task.id}" (already used by "${tasks[index.get(task.id)!].title}"); give each task its own id`, at.line);
    index.set(task.id, i);
  });
  tasks.forEach((task, i) => {
    const at = locate(i);
    for (const dep of task.dependencies) {
      if (dep === task.id) throw new PlanError(source, `${at.where} (task ${task.id}) depends on itself`, at.line);
      if (!index.has(dep)) {
        throw new PlanError(source, `${at.where} (task ${task.id}) depends on "${dep}", which is not a task of the plan (tasks: ${[...index.keys()].join(', ')})`, at.line);
      }
    }
  });
  const cycle = findDependencyCycle(tasks, index);
  if (cycle) {
    const at = locate(index.get(cycle[0])!);
    throw new PlanError(source, `tasks depend on each other in a cycle: ${cycle.join(' → ')}; remove one of these dependencies`, at.line);
  }
}

/**
 * What the loop does next: the first pending or stale task (in plan order) whose dependencies are all complete (a
 * stale one was complete before a task it builds on was rolled back, so it runs again).
 */
export type NextStep = { kind: 'task'; index: number } | { kind: 'done' } | { kind: 'blocked'; reason: string };

export function nextStep(tasks: readonly { id: string; status: string; dependencies: readonly string[] }[]): NextStep {
  const status = new Map(tasks.map((t) => [t.id, t.status]));
  const ready = tasks.findIndex((t) => (t.status === 'pending' || t.status === 'stale') && t.dependencies.every((d) => status.get(d) === 'complete'));
  if (ready >= 0) return { kind: 'task', index: ready };
  if (tasks.every((t) => t.status === 'complete')) return { kind: 'done' };
  const failed = tasks.filter((t) => t.status === 'failed').map((t) => t.id);
  return { kind: 'blocked', reason: `no task can run: ${failed.length > 0 ? `task ${failed.join(', ')} failed` : 'the pending tasks wait for each other'}; resume to retry` };
}
