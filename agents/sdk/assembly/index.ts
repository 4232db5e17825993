// The Omniscient Shell agent SDK (AssemblyScript). An agent is a module that exports the four entry points below
// (re-export them: `export { omni_alloc } from 'omni-sdk'`) and uses these helpers. Capabilities the
// manifest does not declare are refused by the host before the module runs, and every use is checked against the
// user's live grants: a helper reports a refusal as a result with `ok == false` and an error code such as
// `capability_denied` or `capability_revoked`, so the agent can take its fallback path.
import { decodeBase64, encodeBase64, fromUtf8, utf8 } from './base64';
import { filesCreate, filesList, filesRead, filesWrite } from './files';
import * as host from './host';
import { JsonKind, JsonValue, JsonWriter, parseJson, quote } from './json';
import { kvGetRaw, kvSetRaw } from './memory';
import { procExit } from './exit';
import { netFetch } from './network';
import { shellCall } from './shell';

export { JsonValue, JsonWriter, parseJson, quote };
export { afterKeyword, GoalTask, goalTaskOfTurn, readGoalTask } from './goalTask';

/** The host calls this to get memory for each response it writes into the module. */
export function omni_alloc(len: i32): usize {
  return heap.alloc(<usize>len);
}

/** What every helper returns: ok, or the host's error code, message and hint. */
export class HostResult {
  ok: bool = false;
  code: string = '';
  message: string = '';
  hint: string = '';
  value: JsonValue = new JsonValue();

  static from(response: JsonValue): HostResult {
    const result = new HostResult();
    result.fill(response);
    return result;
  }

  /** Takes ok / code / message / hint from the host's answer (subclasses then read their own fields); returns ok. */
  fill(response: JsonValue): bool {
    this.ok = response.get('ok').asBool();
    this.value = response;
    if (!this.ok) {
      const error = response.get('error');
      this.code = error.get('code').asString();
      this.message = error.get('message').asString();
      this.hint = error.get('hint').asString();
    }
    return this.ok;
  }
}

let chunkCounter = 0;

/** A new chunk id: chunks sharing an id build one card. */
export function newChunkId(): string {
  chunkCounter++;
  return 'c' + chunkCounter.toString();
}

/** Streams a chunk of output into the card `chunkId` (text/markdown, text/x-diff, text/x-log, text/x-code;lang=ts …). */
export function output(contentType: string, data: string, chunkId: string): HostResult {
  return HostResult.from(host.output(new JsonWriter().str('content_type', contentType).str('data', data).str('chunk_id', chunkId).toString()));
}

/** A line in the agent's log card. */
export function log(message: string): void {
  output('text/x-log', message + '\n', 'log');
}

/**
 * Asks the user for a capability (blocks until they answer); true when granted. `target` is the path or domain the
 * agent is about to use; `scope` the pattern it asks to be granted (a folder's `dir/**`, a domain's `*.example.org`),
 * which must cover the target. Without either, the grant covers the whole capability.
 */
export function askConsent(capability: string, reason: string, durationS: i32, target: string = '', scope: string = ''): bool {
  const request = new JsonWriter().str('capability', capability).str('reason', reason).int('duration_s', durationS);
  if (target.length > 0) request.str('target', target);
  if (scope.length > 0) request.str('scope', scope);
  return HostResult.from(host.consent(request.toString())).value.get('granted').asBool();
}

/**
 * askConsent for writing `text` to `path`: the host shows the user what would be written (a diff when the file
 * exists) on the card, instead of the path alone. `scope` as for askConsent (defaults to the path itself).
 */
export function askConsentToWrite(reason: string, durationS: i32, path: string, text: string, scope: string = ''): bool {
  const request = new JsonWriter()
    .str('capability', 'files.write')
    .str('reason', reason)
    .int('duration_s', durationS)
    .str('target', path)
    .str('scope', scope.length > 0 ? scope : path)
    .str('content_b64', encodeBase64(utf8(text)));
  return HostResult.from(host.consent(request.toString())).value.get('granted').asBool();
}

export function artifact(id: string, kind: string, path: string, previewHint: string): HostResult {
  return HostResult.from(host.artifact(new JsonWriter().str('id', id).str('kind', kind).str('path', path).str('preview_hint', previewHint).toString()));
}

/** A state_update event; `valueJson` is the value written as JSON; scope is 'agent' or 'session'. */
export function stateUpdate(key: string, valueJson: string, scope: string): HostResult {
  return HostResult.from(host.state(new JsonWriter().str('key', key).raw('value', valueJson).str('scope', scope).toString()));
}

export class TextResult extends HostResult {
  text: string = '';
}

/** Reads a workspace file as UTF-8 text (needs files.read and a grant covering the path). */
export function readFile(path: string): TextResult {
  const response = filesRead(new JsonWriter().str('path', path).toString());
  const result = new TextResult();
  if (result.fill(response)) result.text = fromUtf8(decodeBase64(response.get('data_b64').asString()));
  return result;
}

/** Writes a workspace file (needs files.write and a grant covering the path). */
export function writeFile(path: string, text: string): HostResult {
  return HostResult.from(filesWrite(new JsonWriter().str('path', path).str('data_b64', encodeBase64(utf8(text))).toString()));
}

/**
 * Creates a workspace file only if nothing is at the path yet (needs files.write and a grant covering the path). When
 * something is there, the result has `code == 'exists'` and the file is left exactly as it was: no read needed to
 * avoid overwriting, and no window in which another writer's file could be replaced.
 */
export function createFile(path: string, text: string): HostResult {
  return HostResult.from(filesCreate(new JsonWriter().str('path', path).str('data_b64', encodeBase64(utf8(text))).toString()));
}

/** The entries of a workspace folder: `value.get('entries')` is an array of {name, kind, size}. */
export function listFiles(path: string): HostResult {
  return HostResult.from(filesList(new JsonWriter().str('path', path).toString()));
}

export class FetchResult extends HostResult {
  status: i32 = 0;
  body: string = '';
}

/** An HTTP(S) request made by the host for the agent (needs network and a grant for the domain). */
export function fetch(url: string, method: string = 'GET', body: string = ''): FetchResult {
  const request = new JsonWriter().str('url', url).str('method', method).raw('headers', '{}');
  if (body.length > 0) request.str('body_b64', encodeBase64(utf8(body)));
  const response = netFetch(request.toString());
  const result = new FetchResult();
  if (result.fill(response)) {
    result.status = <i32>response.get('status').asInt();
    result.body = fromUtf8(decodeBase64(response.get('body_b64').asString()));
  }
  return result;
}

export class CommandResult extends HostResult {
  status: string = '';
  exitCode: i32 = -1;
  stdout: string = '';
  stderr: string = '';
}

/**
 * Runs a command line in the workspace (`/bin/sh -c`) and waits for it (needs process.exec). The user is asked for
 * each command unless a live grant covers exactly this one; `reason` is shown on the card. It runs in the OS
 * sandbox: it may write only inside the workspace, and its writes land only if it exits 0. A denial is a result
 * with `code == 'capability_denied'`.
 */
export function runCommand(command: string, reason: string = '', cwd: string = ''): CommandResult {
  const request = new JsonWriter().str('command', command);
  if (reason.length > 0) request.str('reason', reason);
  if (cwd.length > 0) request.str('cwd', cwd);
  const response = shellCall(request.toString());
  const result = new CommandResult();
  if (result.fill(response)) {
    result.status = response.get('status').asString();
    const exit = response.get('exit_code');
    result.exitCode = exit.kind == JsonKind.Number ? <i32>exit.asInt() : -1;
    result.stdout = response.get('stdout').asString();
    result.stderr = response.get('stderr').asString();
  }
  return result;
}

/** The shell tool itself (spawn / poll / kill / send_keys, spec shell-exec-actions): the request and answer as JSON. */
export function shell(requestJson: string): JsonValue {
  return shellCall(requestJson);
}

/** The agent's own key-value memory (needs `memory`). */
export function kvGet(key: string): string {
  const response = kvGetRaw(new JsonWriter().str('key', key).toString());
  return response.get('value').asString();
}

export function kvSet(key: string, value: string): HostResult {
  return HostResult.from(kvSetRaw(new JsonWriter().str('key', key).str('value', value).toString()));
}

/** The session scratchpad shared by the session's agents. */
export function scratchGet(key: string): string {
  return host.scratchGet(new JsonWriter().str('key', key).toString()).get('value').asString();
}

export function scratchSet(key: string, value: string): HostResult {
  return HostResult.from(host.scratchSet(new JsonWriter().str('key', key).str('value', value).toString()));
}

/**
 * The input event the host passes to omni_invoke: `prompt` and `context_refs`, and for a turn spawn_agent started
 * (a goal run's planner, executor or verifier) its `spawn` field: the two prompts apart, and `resume_data` when the
 * agent is resumed after the user answered its checkpoint.
 */
export class Input {
  prompt: string = '';
  contextRefs: string[] = [];
  /** True when spawn_agent started this turn (the fields below are then filled). */
  spawned: bool = false;
  systemPrompt: string = '';
  userMessage: string = '';
  /** resume_data.checkpoint_id: the resume_id of the checkpoint the user answered ('' when not resumed). */
  resumeId: string = '';
  /** resume_data.user_input as text (an answer that is not a string is passed as its JSON). */
  resumeAnswer: string = '';
}

export function readInput(ptr: usize, len: i32): Input {
  const text = String.UTF8.decodeUnsafe(ptr, len);
  const event = parseJson(text);
  const input = new Input();
  input.prompt = event.get('prompt').asString();
  const refs = event.get('context_refs').items;
  for (let i = 0; i < refs.length; i++) input.contextRefs.push(refs[i].asString());
  const spawn = event.get('spawn');
  if (spawn.kind == JsonKind.Object) {
    input.spawned = true;
    input.systemPrompt = spawn.get('system_prompt').asString();
    input.userMessage = spawn.get('user_message').asString();
    const resume = spawn.get('resume_data');
    if (resume.kind == JsonKind.Object) {
      input.resumeId = resume.get('checkpoint_id').asString();
      const answer = resume.get('user_input');
      input.resumeAnswer = answer.kind == JsonKind.String ? answer.asString() : answer.kind == JsonKind.Number ? answer.numberValue.toString() : answer.kind == JsonKind.Bool ? (answer.asBool() ? 'true' : 'false') : '';
    }
  }
  return input;
}

/**
 * Ends the turn as failed: `message` goes out as the run's last output (spawn_agent's caller reads it after "failed
 * (crashed): the agent exited with code 1"), then the agent exits with code 1, so nothing it staged is written.
 */
export function exitWithError(message: string): void {
  output('text/markdown', message, newChunkId());
  procExit(1);
}

/** Called instead of the runtime's default abort: reports where the agent failed, then traps. */
export function onAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  const where = (fileName ? fileName : '?') + ':' + line.toString() + ':' + column.toString();
  host.logBeforeTrap('agent aborted: ' + (message ? message : 'no message') + ' at ' + where + '\n');
  unreachable();
}
