import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { HarnessCliFrontend } from '../../../../src-preload/contract/harness';
import { HarnessSessionError } from './harnessSessionError';

/** Where each CLI's binary is: a configured path, else its name looked up on PATH. */
export type HarnessExecutables = Partial<Record<HarnessCliFrontend, string>>;

const COMMAND: Record<HarnessCliFrontend, { name: string; label: string; env: string; install: string }> = {
  'claude-code': { name: 'claude', label: 'Claude Code', env: 'OMNI_CLAUDE_CODE_PATH', install: 'npm install -g @anthropic-ai/claude-code' },
  'codex-cli': { name: 'codex', label: 'Codex', env: 'OMNI_CODEX_PATH', install: 'npm install -g @openai/codex' },
};

/** The configured paths from the host's environment (OMNI_CLAUDE_CODE_PATH, OMNI_CODEX_PATH). */
export function executablesFromEnv(env: NodeJS.ProcessEnv = process.env): HarnessExecutables {
  const found: HarnessExecutables = {};
  for (const frontend of Object.keys(COMMAND) as HarnessCliFrontend[]) {
    const value = env[COMMAND[frontend].env];
    if (value) found[frontend] = value;
  }
  return found;
}

/**
 * The CLI's own binary, resolved to its real path: the process the host spawns is the CLI itself, not a shell or a
 * Node launcher between them, so killing the card's process tree ends the CLI. Throws HARNESS_CLI_MISSING saying how
 * to install it or where to point the host.
 */
export function resolveHarnessExecutable(frontend: HarnessCliFrontend, configured: HarnessExecutables, path = process.env.PATH ?? ''): string {
  const command = COMMAND[frontend];
  const given = configured[frontend];
  if (given !== undefined) {
    if (!isAbsolute(given)) throw missing(frontend, `${command.env} must be an absolute path, not "${given}"`);
    if (!isExecutableFile(given)) throw missing(frontend, `${given} (from ${command.env}) is not an executable file`);
    return realpathSync(given);
  }
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command.name);
    if (isExecutableFile(candidate)) return realpathSync(candidate);
  }
  throw missing(frontend, `no "${command.name}" on the host's PATH`);
}

function missing(frontend: HarnessCliFrontend, why: string): HarnessSessionError {
  const command = COMMAND[frontend];
  return new HarnessSessionError(
    'HARNESS_CLI_MISSING',
    `${command.label} is not installed where the host can run it: ${why}. Install it (${command.install}) or set ${command.env} to the CLI's binary, then restart the host.`,
  );
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
