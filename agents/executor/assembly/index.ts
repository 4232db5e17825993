// executor: the goal run's default executor, deterministic and offline. It carries out the instruction lines of its
// task (docs/orchestrator.md, "The bundled executor and verifier"), in order:
//
//   $ <command>          runs the command in the workspace (omni.shell: a consent card per command unless a grant
//                        covers it; the OS sandbox); a non-zero exit fails the task with the command's output
//   write <path>         writes the ``` fenced block on the next lines (or the lines indented under it) to the file
//   ask: <question> [A | B]   asks the user (a checkpoint: options make it a decision, none a free-text action);
//                        the answer replaces {answer} in the lines after it
//   check: <command>     left to the verifier
//
// Any other line fails the task naming the line: a plan line it cannot do is never skipped silently.
import { afterKeyword, askConsentToWrite, exitWithError, goalTaskOfTurn, JsonWriter, log, newChunkId, omni_alloc, output, quote, readInput, runCommand, writeFile } from 'omni-sdk';

export { omni_alloc };

const RUN: i32 = 1;
const WRITE: i32 = 2;
const ASK: i32 = 3;
const CHECK: i32 = 4;

const FORMAT = 'write "$ <command>", "write <path>" followed by a ``` fenced block, "ask: <question> [A | B]" or "check: <command>" (docs/orchestrator.md), or give the task another executor with "agent: <name>"';

class Step {
  kind: i32 = 0;
  /** 1-based line of the task's instructions. */
  line: i32 = 0;
  /** The line as written (for messages). */
  text: string = '';
  /** The command, the path or the question. */
  arg: string = '';
  /** write: the file's contents. */
  body: string = '';
  /** ask: the options (none: a free-text answer). */
  options: string[] = [];
  /** ask: 1 for the task's first question, 2 for the second … (part of its resume_id). */
  askIndex: i32 = 0;
}

class Plan {
  steps: Step[] = [];
  problem: string = '';
}

function indentOf(line: string): i32 {
  let n = 0;
  while (n < line.length && (line.charCodeAt(n) == 32 || line.charCodeAt(n) == 9)) n++;
  return n;
}

function unquote(path: string): string {
  if (path.length >= 2 && path.charCodeAt(0) == 96 && path.charCodeAt(path.length - 1) == 96) return path.substring(1, path.length - 1).trim();
  return path;
}

function lineProblem(taskId: string, line: i32, text: string, problem: string): string {
  const where = taskId == 'prompt' ? 'Prompt line ' : 'Task ' + taskId + ', instruction line ';
  return where + line.toString() + ' "' + text.trim() + '": ' + problem;
}

/** Reads every line before anything runs, so a line the executor cannot do stops the task before it changes anything. */
function parse(taskId: string, lines: string[]): Plan {
  const plan = new Plan();
  let asks = 0;
  let i = 0;
  while (i < lines.length) {
    const raw = lines[i];
    const text = raw.trim();
    const lineNo = i + 1;
    i++;
    if (text.length == 0) continue;
    const step = new Step();
    step.line = lineNo;
    step.text = text;
    if (text.startsWith('$')) {
      step.kind = RUN;
      step.arg = text.substring(1).trim();
      if (step.arg.length == 0) {
        plan.problem = lineProblem(taskId, lineNo, text, 'no command after "$"; write e.g. "$ npm test"');
        return plan;
      }
    } else if (afterKeyword(text, 'check:') != null) {
      step.kind = CHECK;
    } else if (afterKeyword(text, 'ask:') != null) {
      step.kind = ASK;
      let question = afterKeyword(text, 'ask:')!;
      const open = question.lastIndexOf('[');
      if (question.endsWith(']') && open >= 0) {
        const choices = question.substring(open + 1, question.length - 1).split('|');
        for (let c = 0; c < choices.length; c++) if (choices[c].trim().length > 0) step.options.push(choices[c].trim());
        question = question.substring(0, open).trim();
      }
      if (question.length == 0) {
        plan.problem = lineProblem(taskId, lineNo, text, 'no question after "ask:"; write e.g. "ask: Which auth provider? [Auth0 | Supabase]"');
        return plan;
      }
      step.arg = question;
      asks++;
      step.askIndex = asks;
    } else if (text.length > 6 && text.substring(0, 6).toLowerCase() == 'write ') {
      step.kind = WRITE;
      step.arg = unquote(text.substring(6).trim());
      let next = i;
      while (next < lines.length && lines[next].trim().length == 0) next++;
      if (next < lines.length && lines[next].trim().startsWith('```')) {
        const fenceIndent = indentOf(lines[next]);
        let end = next + 1;
        while (end < lines.length && !lines[end].trim().startsWith('```')) end++;
        if (end >= lines.length) {
          plan.problem = lineProblem(taskId, lineNo, text, 'the ``` block after it is not closed; end the file\'s contents with a line ```');
          return plan;
        }
        let body = '';
        for (let b = next + 1; b < end; b++) {
          const content = lines[b];
          const cut = indentOf(content) < fenceIndent ? indentOf(content) : fenceIndent;
          body += content.substring(cut) + '\n';
        }
        step.body = body;
        i = end + 1;
      } else {
        // The lines indented deeper than the write line are the contents, that extra indentation removed.
        const base = indentOf(raw);
        let end = i;
        while (end < lines.length && (lines[end].trim().length == 0 || indentOf(lines[end]) > base)) end++;
        while (end > i && lines[end - 1].trim().length == 0) end--;
        if (end == i) {
          plan.problem = lineProblem(taskId, lineNo, text, 'no contents: put the file\'s text in a ``` fenced block on the next lines');
          return plan;
        }
        const cutAt = indentOf(lines[i]);
        let body = '';
        for (let b = i; b < end; b++) {
          const content = lines[b];
          body += content.substring(indentOf(content) < cutAt ? indentOf(content) : cutAt) + '\n';
        }
        step.body = body;
        i = end;
      }
      if (step.arg.length == 0) {
        plan.problem = lineProblem(taskId, lineNo, text, 'no path after "write"; write e.g. "write src/config.json"');
        return plan;
      }
    } else {
      plan.problem = lineProblem(taskId, lineNo, text, 'not an instruction the executor knows; ' + FORMAT);
      return plan;
    }
    if (step.kind == RUN) {
      const written = writtenEarlier(plan.steps, step.arg);
      if (written != null) {
        plan.problem = lineProblem(
          taskId,
          lineNo,
          text,
          'the command names ' + written.arg + ', which line ' + written.line.toString() + ' of this task writes; a command does not see the task\'s own writes (they reach the workspace when the task ends), so run it in a later task (after this one) or as a "check:" line',
        );
        return plan;
      }
    }
    plan.steps.push(step);
  }
  return plan;
}

/** The earlier write step whose path is a word of `command` (as is, or as ./path), or null. */
function writtenEarlier(steps: Step[], command: string): Step | null {
  const words: string[] = [];
  let word = '';
  for (let c = 0; c <= command.length; c++) {
    const code = c < command.length ? command.charCodeAt(c) : 32;
    // Space, tab, quotes, redirections, pipes and separators end a word.
    const ends = code == 32 || code == 9 || code == 34 || code == 39 || code == 60 || code == 62 || code == 124 || code == 59 || code == 38 || code == 40 || code == 41;
    if (!ends) {
      word += String.fromCharCode(code);
      continue;
    }
    if (word.length > 0) words.push(word.startsWith('./') ? word.substring(2) : word);
    word = '';
  }
  for (let s = 0; s < steps.length; s++) {
    if (steps[s].kind != WRITE) continue;
    const path = steps[s].arg.startsWith('./') ? steps[s].arg.substring(2) : steps[s].arg;
    for (let w = 0; w < words.length; w++) if (words[w] == path) return steps[s];
  }
  return null;
}

function withAnswer(text: string, answer: string, answered: bool): string {
  return answered ? text.replaceAll('{answer}', answer) : text;
}

/** The last part of a command's output, for the failure message (the whole of it is on the log card). */
function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 1500 ? '…' + trimmed.substring(trimmed.length - 1500) : trimmed;
}

function resumeIdOf(taskId: string, askIndex: i32): string {
  return 'ask.' + taskId + '.' + askIndex.toString();
}

export function omni_start(ptr: usize, len: i32): void {}

export function omni_invoke(ptr: usize, len: i32): void {
  const input = readInput(ptr, len);
  const task = goalTaskOfTurn(input.spawned, input.userMessage, input.prompt);
  if (task.id.length == 0) {
    exitWithError('The executor cannot run this: ' + task.problem + '.');
    return;
  }
  const plan = parse(task.id, task.instructions);
  if (plan.problem.length > 0) {
    exitWithError(plan.problem + '.');
    return;
  }
  // Resumed after the user answered question n: the steps up to it ran in the turn that asked (and its writes were
  // kept), so this turn goes on after it.
  let answered = false;
  let answer = '';
  let resumeAfter = 0;
  if (input.resumeId.length > 0) {
    for (let s = 0; s < plan.steps.length; s++) {
      if (plan.steps[s].kind == ASK && resumeIdOf(task.id, plan.steps[s].askIndex) == input.resumeId) resumeAfter = s + 1;
    }
    if (resumeAfter == 0) {
      exitWithError('Task ' + task.id + ': resumed with the answer to "' + input.resumeId + '", which is not a question of this task (the instructions changed?); run the task again.');
      return;
    }
    answered = true;
    answer = input.resumeAnswer;
    log('Resumed after "' + plan.steps[resumeAfter - 1].arg + '": the answer is "' + answer + '"');
  }
  let done = '';
  for (let s = resumeAfter; s < plan.steps.length; s++) {
    const step = plan.steps[s];
    if (step.kind == CHECK) continue;
    if (step.kind == ASK) {
      log('line ' + step.line.toString() + ': asking "' + step.arg + '"');
      const signal = new JsonWriter()
        .str('type', 'checkpoint')
        .str('reason', step.options.length > 0 ? 'decision_required' : 'human_action')
        .str('message', withAnswer(step.arg, answer, answered));
      let options = '[';
      for (let o = 0; o < step.options.length; o++) options += (o > 0 ? ',' : '') + quote(step.options[o]);
      signal.raw('options', options + ']').str('resume_id', resumeIdOf(task.id, step.askIndex));
      // The checkpoint is the turn's last output: spawn_agent raises it, and the run resumes this agent with the answer.
      output('text/x-code;lang=json', signal.toString(), newChunkId());
      return;
    }
    if (step.kind == WRITE) {
      const path = withAnswer(step.arg, answer, answered);
      const body = withAnswer(step.body, answer, answered);
      let written = writeFile(path, body);
      if (!written.ok && written.code == 'capability_denied') {
        if (askConsentToWrite('task ' + task.id + ' writes ' + path, 600, path, body)) written = writeFile(path, body);
      }
      if (!written.ok) {
        exitWithError(lineProblem(task.id, step.line, step.text, 'could not write ' + path + ' (' + written.code + ': ' + written.message + ')') + '.');
        return;
      }
      log('line ' + step.line.toString() + ': wrote ' + path + ' (' + body.length.toString() + ' characters)');
      done += '- wrote `' + path + '`\n';
      continue;
    }
    const command = withAnswer(step.arg, answer, answered);
    log('line ' + step.line.toString() + ': $ ' + command);
    const result = runCommand(command, 'task ' + task.id + ' "' + task.title + '", instruction line ' + step.line.toString());
    if (!result.ok) {
      exitWithError(lineProblem(task.id, step.line, step.text, 'the command was not run (' + result.code + ': ' + result.message + ')') + '.');
      return;
    }
    const printed = result.stdout + result.stderr;
    if (printed.length > 0) log(printed);
    if (result.status != 'exited' || result.exitCode != 0) {
      const how = result.status == 'exited' ? 'exited with code ' + result.exitCode.toString() : 'ended ' + result.status;
      exitWithError(lineProblem(task.id, step.line, step.text, 'the command ' + how) + (tail(printed).length > 0 ? ':\n\n```\n' + tail(printed) + '\n```\n' : '.'));
      return;
    }
    done += '- ran `' + command + '`\n';
  }
  output('text/markdown', (task.id == 'prompt' ? 'Done' : 'Task ' + task.id + ' done') + (done.length > 0 ? ':\n' + done : ': nothing to do\n'), newChunkId());
}

export function omni_shutdown(): void {}
