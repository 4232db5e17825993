/**
 * The first dependency loop among tasks, as task ids ending where it started, or null. `index` maps each task id to
 * its position in `tasks`. Dependencies on the task itself or on an id not in `index` are passed over: callers report
 * those separately (and may go on looking for a cycle after reporting them, as a schema check that names every
 * problem does).
 */
export function findDependencyCycle(tasks: readonly { id: string; dependencies: readonly string[] }[], index: ReadonlyMap<string, number>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of tasks[index.get(id)!].dependencies) {
      if (dep === id || !index.has(dep)) continue;
      const found = visit(dep);
      if (found) return found;
    }
    stack.pop();
    state.set(id, 'done');
    return null;
  };
  for (const task of tasks) {
    const found = visit(task.id);
    if (found) return found;
  }
  return null;
}
