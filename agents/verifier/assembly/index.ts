// verifier: the goal run's default verifier, deterministic and offline. It runs the task's "check: <command>" lines
// (docs/orchestrator.md, "The bundled executor and verifier") in the workspace through omni.shell (a consent card per
// command unless a grant covers it; the OS sandbox) and answers the verdict the orchestrator reads (verdict.ts):
// {"verdict":"pass"} when every check exits 0, {"verdict":"fail","gaps":[…]} with each failed command and its
// output otherwise. A task without check lines passes with "nothing to verify". The other instruction lines are the
// executor's. The verifier writes nothing itself; a check command that writes files changes the workspace like any
// command (its writes land when it exits 0), so checks should only read.
import { afterKeyword, exitWithError, goalTaskOfTurn, JsonWriter, log, newChunkId, omni_alloc, output, quote, readInput, runCommand } from 'omni-sdk';

export { omni_alloc };

/** Command output in a gap, each line indented, so no line of it can pass for a part of the next prompt. */
function indented(text: string): string {
  const trimmed = text.trim();
  const cut = trimmed.length > 1500 ? '…' + trimmed.substring(trimmed.length - 1500) : trimmed;
  const lines = cut.split('\n');
  let out = '';
  for (let i = 0; i < lines.length; i++) out += '\n    ' + lines[i];
  return out;
}

export function omni_start(ptr: usize, len: i32): void {}

export function omni_invoke(ptr: usize, len: i32): void {
  const input = readInput(ptr, len);
  const task = goalTaskOfTurn(input.spawned, input.userMessage, input.prompt);
  if (task.id.length == 0) {
    exitWithError('The verifier cannot run this: ' + task.problem + '.');
    return;
  }
  const gaps: string[] = [];
  let checks = 0;
  for (let i = 0; i < task.instructions.length; i++) {
    const command = afterKeyword(task.instructions[i].trim(), 'check:');
    if (command == null) continue;
    const line = 'instruction line ' + (i + 1).toString();
    if (command.length == 0) {
      gaps.push(line + ': "check:" names no command; write e.g. "check: npm test"');
      continue;
    }
    checks++;
    log(line + ': check: ' + command);
    const result = runCommand(command, 'verify task ' + task.id + ' "' + task.title + '", ' + line);
    if (!result.ok) {
      gaps.push('check `' + command + '` (' + line + ') was not run: ' + result.code + ': ' + result.message);
      continue;
    }
    const printed = result.stdout + result.stderr;
    if (printed.length > 0) log(printed);
    if (result.status == 'exited' && result.exitCode == 0) continue;
    const how = result.status == 'exited' ? 'exited with code ' + result.exitCode.toString() : 'ended ' + result.status;
    gaps.push('check `' + command + '` (' + line + ') ' + how + (printed.trim().length > 0 ? ':' + indented(printed) : ' and printed nothing'));
  }
  const verdict = new JsonWriter();
  if (gaps.length == 0) {
    verdict.str('verdict', 'pass').str('summary', checks == 0 ? 'nothing to verify: the task has no "check:" lines' : (checks == 1 ? 'the check passed' : 'all ' + checks.toString() + ' checks passed'));
  } else {
    let list = '[';
    for (let g = 0; g < gaps.length; g++) list += (g > 0 ? ',' : '') + quote(gaps[g]);
    verdict.str('verdict', 'fail').raw('gaps', list + ']');
  }
  // The verdict is the whole of the answer (the log card, which carries the commands' output, is not part of it).
  output('text/x-code;lang=json', verdict.toString(), newChunkId());
}

export function omni_shutdown(): void {}
