import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DomainError, invalidField, invalidInput } from '../base/domainError';
import { ShellRequest, type ShellCommand } from '../../../src-preload/contract/exec';

/** Fields each action takes besides `action` itself (the schema already checked their types and ranges). */
const FIELDS: Record<NonNullable<ShellRequest['action']> | 'run', readonly (keyof ShellRequest)[]> = {
  run: ['command', 'pty', 'timeout_secs', 'max_output_bytes', 'watch', 'session_id', 'cwd', 'background'],
  spawn: ['command', 'background', 'pty', 'timeout_secs', 'max_output_bytes', 'watch', 'session_id', 'cwd'],
  poll: ['run_id', 'since_seq', 'session_id'],
  kill: ['run_id', 'session_id'],
  send_keys: ['run_id', 'keys', 'session_id'],
};

/** The argv is stored with the run and in the ledger: bounded well below what the system would take anyway. */
export const MAX_COMMAND_BYTES = 1024 * 1024;

/**
 * Parses a shell request (from an agent, the CLI or the UI: input from elsewhere, so `unknown`) and checks what the
 * schema cannot: which fields an action needs and which it does not take, so a mistyped request says what is wrong
 * instead of silently doing something else.
 */
export function parseShellRequest(input: unknown): ShellRequest {
  const parsed = ShellRequest.safeParse(input);
  if (!parsed.success) throw invalidInput('shell request', parsed.error);
  const request = parsed.data;
  const action = request.action ?? 'run';
  const allowed = FIELDS[action];
  for (const key of Object.keys(request) as (keyof ShellRequest)[]) {
    if (key === 'action' || request[key] === undefined || allowed.includes(key)) continue;
    const what = request.action ? `action=${request.action}` : 'a one-shot run (no action)';
    throw invalidField(key, `${what} does not take ${key} (it takes ${allowed.join(', ')})`);
  }
  if ((action === 'spawn' || action === 'run') && request.command === undefined) {
    throw invalidField('command', `${request.action ? 'action=spawn' : 'a one-shot run (no action)'} needs a command: a string for /bin/sh -c, or an argv array`);
  }
  if (request.command !== undefined) {
    const size = commandArgv(request.command).reduce((total, arg) => total + Buffer.byteLength(arg) + 1, 0);
    if (size > MAX_COMMAND_BYTES) {
      throw invalidField('command', `the command is ${size} bytes; at most ${MAX_COMMAND_BYTES} (Linux itself refuses more than about 2 MB of arguments): pass large input through a file`);
    }
  }
  if ((action === 'poll' || action === 'kill' || action === 'send_keys') && request.run_id === undefined) {
    throw invalidField('run_id', `action=${action} needs the run_id that spawn returned`);
  }
  if (action === 'send_keys' && request.keys === undefined) {
    throw invalidField('keys', 'action=send_keys needs keys: text and key names, e.g. ["ls -l", "Enter"] or ["C-c"]');
  }
  return request;
}

/** A command string runs in /bin/sh -c; an array is the argv. */
export function commandArgv(command: ShellCommand): string[] {
  return typeof command === 'string' ? ['/bin/sh', '-c', command] : [...command];
}

/** The run's working directory: `cwd` inside the workspace (symlinks resolved), the workspace itself by default. */
export function resolveRunCwd(workspace: string, cwd: string | undefined): string {
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch (error) {
    throw new DomainError('unavailable', `the session's workspace ${workspace} cannot be opened: ${(error as Error).message}`);
  }
  if (cwd === undefined || cwd === '' || cwd === '.') return root;
  let target: string;
  try {
    target = realpathSync(resolve(root, cwd));
  } catch {
    throw invalidField('cwd', `${cwd} does not exist in the workspace`);
  }
  const inside = relative(root, target);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) throw invalidField('cwd', `${cwd} is outside the workspace (${root}); give a folder inside it`);
  if (!statSync(target).isDirectory()) throw invalidField('cwd', `${cwd} is not a folder`);
  return target;
}
