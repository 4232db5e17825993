import { closeSync, existsSync, lstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { isModelAgentEntry, MODEL_AGENT_ENTRY_SUFFIX, readLlmAgentDefinition } from '../../llm/llmAgentDefinition';
import type { ManifestIssues } from './manifestIssues';

const WASM_MAGIC = Buffer.from([0x00, 0x61, 0x73, 0x6d]);

/**
 * Checks `entry`: a relative path with forward slashes, no `..`, naming a file that exists inside the agent folder
 * once symlinks are resolved (a symlink pointing out of the folder would run code the manifest's hash does not
 * cover), and for `sandbox = "wasm"` a WebAssembly module. Returns the resolved path, or null after an error.
 * With `toBeBuilt` (`omni agent build`), an entry that does not exist yet is accepted where the build may write it:
 * its nearest existing folder must be inside the agent folder once symlinks are resolved.
 */
export function checkEntry(entry: string, folder: string, sandbox: string | null, issues: ManifestIssues, toBeBuilt = false): string | null {
  const expected = 'a path relative to the agent folder, inside it (e.g. "agent.wasm" or "bin/agent.wasm")';
  if (entry.trim() === '') {
    issues.error('invalid_value', 'entry', expected, 'an empty string', 'name the file the agent starts from, e.g. entry = "agent.wasm"');
    return null;
  }
  if (entry.includes('\\')) {
    issues.error('invalid_value', 'entry', `${expected} with / between folders`, `the string ${JSON.stringify(entry)}`, `write entry = ${JSON.stringify(entry.replace(/\\/g, '/'))}`);
    return null;
  }
  if (isAbsolute(entry) || /^[A-Za-z]:/.test(entry)) {
    issues.error('entry_outside_folder', 'entry', expected, `the absolute path ${JSON.stringify(entry)}`, 'copy the file into the agent folder and give its path relative to the folder');
    return null;
  }
  if (entry.split('/').includes('..')) {
    issues.error('entry_outside_folder', 'entry', expected, `${JSON.stringify(entry)}, which uses ".." to leave the folder`, 'move the file into the agent folder; an agent may only run code it ships');
    return null;
  }
  const path = resolve(folder, entry);
  if (toBeBuilt && !exists(path)) return futureEntryPath(entry, path, folder, issues);
  let real: string;
  try {
    real = realpathSync(path);
    if (!statSync(real).isFile()) {
      issues.error('entry_missing', 'entry', 'a file', `${JSON.stringify(entry)}, which is a folder`, 'point entry at the module or executable inside it');
      return null;
    }
  } catch {
    const hint = sandbox === 'wasm' ? 'build the agent first (its .wasm goes into the agent folder) or correct the path' : 'correct the path or add the file';
    issues.error('entry_missing', 'entry', 'a file that exists', `no file at ${path}`, hint);
    return null;
  }
  const inside = relative(realpathSync(folder), real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    issues.error('entry_outside_folder', 'entry', expected, `${JSON.stringify(entry)}, a symlink to ${real} outside the folder`, 'replace the symlink with the file itself');
    return null;
  }
  // A model-backed agent (docs/llm-agents.md): its entry is a definition the host's model client runs, not code.
  if (isModelAgentEntry(entry)) return checkModelAgentEntry(real, sandbox, issues);
  if (sandbox === 'wasm' && !startsWith(real, WASM_MAGIC)) {
    issues.error('entry_not_wasm', 'entry', 'a WebAssembly module (a file starting with \\0asm) for sandbox = "wasm"', `${JSON.stringify(entry)}, which is not one`, 'point entry at the compiled .wasm, or set sandbox = "native" for an executable');
    return null;
  }
  return real;
}

/** A `*.llm.toml` entry runs no program of its own: sandbox = "wasm" (no native code), and the definition must read. */
function checkModelAgentEntry(real: string, sandbox: string | null, issues: ManifestIssues): string | null {
  if (sandbox === 'native') {
    issues.error('invalid_value', 'sandbox', `"wasm" for a model-backed agent (entry *${MODEL_AGENT_ENTRY_SUFFIX})`, '"native"', 'set sandbox = "wasm": a model-backed agent runs no program, the host calls the model for it');
    return null;
  }
  try {
    readLlmAgentDefinition(real);
  } catch (error) {
    issues.error('invalid_value', 'entry', 'a readable model-agent definition (docs/llm-agents.md)', (error as Error).message, (error as { hint?: string }).hint ?? 'fix the definition file');
    return null;
  }
  return real;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Where a build will write the entry: under its nearest existing folder, which must be inside the agent folder. */
function futureEntryPath(entry: string, path: string, folder: string, issues: ManifestIssues): string | null {
  let existing = dirname(path);
  while (!existsSync(existing)) existing = dirname(existing);
  const realFolder = realpathSync(folder);
  const realExisting = realpathSync(existing);
  const inside = relative(realFolder, realExisting);
  if (inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    issues.error('entry_outside_folder', 'entry', 'a path relative to the agent folder, inside it', `${JSON.stringify(entry)}, under a symlink to ${realExisting} outside the folder`, 'replace the symlinked folder with a real one');
    return null;
  }
  if (!statSync(realExisting).isDirectory()) {
    issues.error('invalid_value', 'entry', 'a path under folders of the agent folder', `${JSON.stringify(entry)}, under ${JSON.stringify(relative(realFolder, realExisting))}, which is a file`, 'point entry somewhere else, e.g. entry = "agent.wasm"');
    return null;
  }
  return resolve(realExisting, relative(existing, path));
}

function startsWith(file: string, magic: Buffer): boolean {
  const head = Buffer.alloc(magic.length);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(magic);
  } finally {
    closeSync(fd);
  }
}
