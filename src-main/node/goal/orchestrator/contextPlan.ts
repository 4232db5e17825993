import { PlanError, TASK_ID_PATTERN, type PlannedTask } from './plannedTask';
import { validateTaskGraph } from './taskGraph';

/**
 * The plan a user writes into `.meta/context.md` for the deterministic (offline) planner. See docs/orchestrator.md:
 *
 *   ## Plan
 *   - [01] Setup project
 *   - [02] Implement SQLite schema (after 01)
 *     agent: scaffolder
 *     verifier: none
 *     Create the tables tasks and tags.
 *
 * A task is a list item ("-", "*", "+" or "1.") starting with its id in brackets. "(after 01, 02)" (also "after 01
 * and 02", "depends on", "needs") names its dependencies. Indented lines under a task are its details: "agent:" and
 * "verifier:" choose the agents, anything else is instructions for the executor. The section ends at the next heading.
 */
export const CONTEXT_SOURCE = '.meta/context.md';

const PLAN_HEADING = /^#{1,6}\s*plan\s*:?\s*$/i;
const ANY_HEADING = /^#{1,6}\s/;
const BULLET = /^(?:[-*+]|\d+[.)])\s+(.*)$/;
const DEPENDENCY_CLAUSE = /\(\s*(?:after|depends on|needs)\b([^)]*)\)/i;
const EXAMPLE = '"- [02] Implement schema (after 01)"';

/** Tasks with the context.md line each came from (for graph errors). */
interface LocatedTask extends PlannedTask {
  line: number;
  /** The indentation of the task's first detail line: later lines keep what they have beyond it (file contents). */
  detailIndent?: number;
  /** Inside a ``` fenced block of its instructions: blank lines are kept and "agent:" is just text. */
  inFence?: boolean;
}

/** Whether context.md has a "## Plan" section (then the deterministic planner applies). */
export function hasContextPlan(context: string): boolean {
  return context.split(/\r?\n/).some((line) => PLAN_HEADING.test(line.trim()));
}

/** The "## Plan" section's tasks, validated as a DAG; PlanError names the line that is wrong and how to write it. */
export function parseContextPlan(context: string): PlannedTask[] {
  const lines = context.split(/\r?\n/);
  const start = lines.findIndex((line) => PLAN_HEADING.test(line.trim()));
  if (start < 0) throw new PlanError(CONTEXT_SOURCE, `there is no "## Plan" section; add one with a task per line, e.g. ${EXAMPLE}`);
  const tasks: LocatedTask[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const raw = lines[i];
    const lineNo = i + 1;
    if (ANY_HEADING.test(raw.trim()) && !/^\s/.test(raw)) break;
    if (raw.trim() === '') {
      const task = tasks.at(-1);
      if (task?.inFence) task.instructions = `${task.instructions ?? ''}\n`;
      continue;
    }
    if (/^\s/.test(raw)) {
      const task = tasks.at(-1);
      if (!task) throw new PlanError(CONTEXT_SOURCE, `"${raw.trim()}" is indented but no task comes before it; start the plan with a task, e.g. ${EXAMPLE}`, lineNo);
      addDetail(task, raw, lineNo);
      continue;
    }
    tasks.push(parseTaskLine(raw.trim(), lineNo));
  }
  if (tasks.length === 0) throw new PlanError(CONTEXT_SOURCE, `the "## Plan" section has no tasks; write one per line, e.g. ${EXAMPLE}`, start + 1);
  validateTaskGraph(tasks, CONTEXT_SOURCE, (i) => ({ line: tasks[i].line, where: `"${tasks[i].title}"` }));
  return tasks.map(({ line: _line, detailIndent: _indent, inFence: _fence, ...task }) => task);
}

function parseTaskLine(text: string, lineNo: number): LocatedTask {
  const bullet = BULLET.exec(text);
  if (!bullet) throw new PlanError(CONTEXT_SOURCE, `"${text}" is not a task; write each task as a list item, e.g. ${EXAMPLE} (indent a line to make it part of the task above)`, lineNo);
  const body = bullet[1].trim();
  const idMatch = /^\[([^\]]*)\]\s*(.*)$/.exec(body);
  if (!idMatch) throw new PlanError(CONTEXT_SOURCE, `"${body}" has no task id; start it with an id in brackets, e.g. ${EXAMPLE}`, lineNo);
  const id = idMatch[1].trim();
  if (!TASK_ID_PATTERN.test(id)) throw new PlanError(CONTEXT_SOURCE, `task id "${id}" must be letters, digits and . _ - (e.g. "01", "setup")`, lineNo);
  let title = idMatch[2];
  let dependencies: string[] = [];
  const clause = DEPENDENCY_CLAUSE.exec(title);
  if (clause) {
    dependencies = parseDependencies(clause[1], id, lineNo);
    title = `${title.slice(0, clause.index)} ${title.slice(clause.index + clause[0].length)}`;
  } else if (/\(\s*(?:after|depends on|needs)\b/i.test(title)) {
    throw new PlanError(CONTEXT_SOURCE, `task ${id}: the dependency list is not closed; end it with ")", e.g. ${EXAMPLE}`, lineNo);
  }
  title = title.replace(/\s+/g, ' ').trim();
  if (title === '') throw new PlanError(CONTEXT_SOURCE, `task ${id} has no title; say what it does after the id, e.g. ${EXAMPLE}`, lineNo);
  return { id, title, dependencies, line: lineNo };
}

function parseDependencies(list: string, id: string, lineNo: number): string[] {
  const ids = list
    .split(/,|\band\b|\s+/i)
    .map((part) => part.trim().replace(/^\[|\]$/g, '').replace(/^(?:task)$/i, ''))
    .filter((part) => part !== '');
  if (ids.length === 0) throw new PlanError(CONTEXT_SOURCE, `task ${id}: "(after)" names no task; list the ids it waits for, e.g. ${EXAMPLE}`, lineNo);
  for (const dep of ids) {
    if (!TASK_ID_PATTERN.test(dep)) throw new PlanError(CONTEXT_SOURCE, `task ${id}: dependency "${dep}" is not a task id (letters, digits and . _ -)`, lineNo);
  }
  return [...new Set(ids)];
}

/**
 * A detail line of a task. Instructions keep their indentation beyond the task's detail indentation, and a ``` fenced
 * block keeps its blank lines, so an executor can be handed a file's contents as written (the bundled executor's
 * "write <path>" takes the fenced block after it).
 */
function addDetail(task: LocatedTask, raw: string, lineNo: number): void {
  const text = raw.trim();
  const indent = raw.length - raw.trimStart().length;
  task.detailIndent ??= indent;
  const option = task.inFence ? null : /^(agent|executor|verifier|verify)\s*:\s*(.*)$/i.exec(text);
  if (!option) {
    const kept = raw.slice(Math.min(indent, task.detailIndent)).trimEnd();
    if (text.startsWith('```')) task.inFence = !task.inFence;
    task.instructions = task.instructions !== undefined ? `${task.instructions}\n${kept}` : kept;
    return;
  }
  const value = option[2].trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value)) {
    throw new PlanError(CONTEXT_SOURCE, `task ${task.id}: "${option[1]}:" needs an agent name (letters, digits and . _ -), got "${value}"`, lineNo);
  }
  if (/^(agent|executor)$/i.test(option[1])) task.agent = value;
  else task.verifier = value;
}
