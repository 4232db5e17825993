// The task a goal run hands its executor and verifier (docs/orchestrator.md, "The prompt"): spawn_agent's user
// message is the state prompt, "Current State: Phase 1 (Executing Task 02), Context: <context.md>", followed by
// "\n\nTask 02: <title>", then "\n\nInstructions:\n<lines>" and, on a retry, "\n\nAn earlier attempt was not
// accepted. Address this:\n<gaps>". Context.md is free text and may hold anything, so the task is found from the
// task id the state prompt's first line names, at the last "\n\nTask <id>: " of the message.

const GUIDANCE_HEADER = '\n\nAn earlier attempt was not accepted. Address this:\n';
const INSTRUCTIONS_HEADER = '\n\nInstructions:\n';

export class GoalTask {
  /** '' when the message is not a goal run's task (then `problem` says why). */
  id: string = '';
  title: string = '';
  /** The instruction lines as the planner gave them (context.md's task lines, indentation beyond the task's kept). */
  instructions: string[] = [];
  /** What the verifier (or the user) said about the previous attempt; '' on a first attempt. */
  guidance: string = '';
  problem: string = '';
}

/** The id after "(Executing Task " / "(Verifying Task " on the state prompt's first line. */
function taskIdOf(firstLine: string): string {
  const markers: string[] = ['(Executing Task ', '(Verifying Task '];
  for (let i = 0; i < markers.length; i++) {
    const at = firstLine.indexOf(markers[i]);
    if (at < 0) continue;
    const start = at + markers[i].length;
    const end = firstLine.indexOf(')', start);
    if (end > start) return firstLine.substring(start, end);
  }
  return '';
}

export function readGoalTask(userMessage: string): GoalTask {
  const task = new GoalTask();
  const newline = userMessage.indexOf('\n');
  const first = newline < 0 ? userMessage : userMessage.substring(0, newline);
  const id = taskIdOf(first.substring(0, first.indexOf(', Context:') < 0 ? first.length : first.indexOf(', Context:')));
  if (id.length == 0) {
    task.problem = 'the message is not a goal run task: it should start "Current State: Phase N (Executing Task <id>), Context: …" (spawn this agent from a goal run, see docs/orchestrator.md)';
    return task;
  }
  const header = '\n\nTask ' + id + ': ';
  const at = userMessage.lastIndexOf(header);
  if (at < 0) {
    task.problem = 'the message names task ' + id + ' but has no "Task ' + id + ': <title>" part';
    return task;
  }
  task.id = id;
  let rest = userMessage.substring(at + header.length);
  const guidanceAt = rest.indexOf(GUIDANCE_HEADER);
  if (guidanceAt >= 0) {
    task.guidance = rest.substring(guidanceAt + GUIDANCE_HEADER.length);
    rest = rest.substring(0, guidanceAt);
  }
  const instructionsAt = rest.indexOf(INSTRUCTIONS_HEADER);
  task.title = instructionsAt < 0 ? rest.trim() : rest.substring(0, instructionsAt).trim();
  if (instructionsAt >= 0) task.instructions = rest.substring(instructionsAt + INSTRUCTIONS_HEADER.length).split('\n');
  return task;
}

/** The text after `prefix` when `line` (already trimmed) starts with it, ignoring case; null otherwise. */
export function afterKeyword(line: string, prefix: string): string | null {
  if (line.length < prefix.length) return null;
  if (line.substring(0, prefix.length).toLowerCase() != prefix) return null;
  return line.substring(prefix.length).trim();
}

/**
 * The task of this turn for an agent a goal run spawns that can also be started by hand: spawned, the task in
 * spawn_agent's user message (id '' and `problem` set when the message is not a goal run's task); started by hand
 * (the Agents view, `omni agent run`), the prompt's task if it is written as one, else the prompt itself is the
 * instruction lines of a task "prompt".
 */
export function goalTaskOfTurn(spawned: bool, userMessage: string, prompt: string): GoalTask {
  const task = readGoalTask(spawned ? userMessage : prompt);
  if (task.id.length == 0 && !spawned) {
    task.id = 'prompt';
    task.title = 'the prompt';
    task.instructions = prompt.split('\n');
    task.problem = '';
  }
  return task;
}
