import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Which capability a Claude Code tool call uses, in the consent engine's terms (docs/harness.md, "Consent for CLI
 * agents"). A tool the app has no capability for is refused, not guessed at: Claude Code then tells the model the
 * call was denied.
 */
export type ClaudeToolUse =
  | { ok: true; capability: string; target?: string; method?: string; action?: string; summary: string }
  /** `capability`/`target`: what the refused call was, as well as it can be said, for its ledger entry. */
  | { ok: false; reason: string; capability?: string; target?: string };

const FILE_WRITERS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
const FILE_READERS = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']);

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** `workspace` is the CLI's cwd (absolute): file targets are taken relative to it, as files.* scopes are. */
export function claudeToolCapability(toolName: string, input: Record<string, unknown>, workspace: string): ClaudeToolUse {
  if (toolName === 'Bash') {
    const command = str(input.command);
    if (!command) return { ok: false, reason: 'the Bash call names no command' };
    const why = str(input.description);
    return { ok: true, capability: 'process.exec', action: command, summary: `run ${JSON.stringify(command)}${why ? ` (${why})` : ''}` };
  }
  if (FILE_WRITERS.has(toolName) || FILE_READERS.has(toolName)) {
    const writes = FILE_WRITERS.has(toolName);
    const given = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
    // Glob, Grep and LS without a path search the cwd.
    if (given === undefined && (writes || toolName === 'Read')) return { ok: false, reason: `the ${toolName} call names no file` };
    const capability = writes ? 'files.write' : 'files.read';
    const target = workspacePath(given ?? '.', workspace);
    if (!target.ok) return { ...target, capability, target: given };
    return { ok: true, capability, target: target.path, summary: `${writes ? 'write' : 'read'} ${target.path === '' ? 'the workspace' : target.path} (${toolName})` };
  }
  if (toolName === 'WebFetch') {
    const url = str(input.url);
    if (!url) return { ok: false, reason: 'the WebFetch call names no URL' };
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { ok: false, reason: `"${url}" is not a URL` };
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, reason: `WebFetch of a ${parsed.protocol} URL is not allowed` };
    return { ok: true, capability: 'network', target: url, method: 'GET', action: url, summary: `fetch ${url}` };
  }
  return {
    ok: false,
    reason: `the app has no capability for Claude Code's tool "${toolName}", so it cannot be allowed (mapped tools: Bash, Write, Edit, MultiEdit, NotebookEdit, Read, Glob, Grep, LS, WebFetch)`,
  };
}

/**
 * The path relative to the workspace, resolved the way the file system will: through symbolic links of the part
 * that exists, so `link/x` with `link -> /etc` is outside. Outside the workspace is refused (files.* scopes are
 * workspace paths).
 */
function workspacePath(given: string, workspace: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (given.includes('\0')) return { ok: false, reason: 'the path contains a NUL character' };
  const root = realOrSelf(workspace);
  const absolute = resolve(workspace, given);
  const real = realOfExistingPart(absolute);
  if (real === null) return { ok: false, reason: `${given} goes through a symbolic link that points nowhere; the file it would create cannot be judged` };
  const inside = relative(root, real);
  if (inside === '') return { ok: true, path: '' };
  if (inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    return { ok: false, reason: `${given} is outside the workspace (${workspace}); agents get consent for workspace files only` };
  }
  return { ok: true, path: inside.split(sep).join('/') };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * realpath of the deepest ancestor that exists, with the rest (not yet created) appended; null when that ancestor
 * is a dangling symbolic link (writing through it would create its target, wherever that is).
 */
function realOfExistingPart(absolute: string): string | null {
  let existing = absolute;
  const rest: string[] = [];
  while (!hasEntry(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    existing = parent;
  }
  try {
    return resolve(realpathSync(existing), ...rest);
  } catch {
    return null;
  }
}

function hasEntry(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
