import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { AcpError } from './acpError';

/**
 * Where an agent's program is, resolved on the host before launch: the sandbox has its own PATH and sees only what
 * it is given, so the launcher needs the program's real path and the folder it is installed in (to share it
 * read-only). A bare name is looked up in the installed adapters' bin folders (`<dir>/node_modules/.bin`), then on
 * the host's PATH.
 */
export interface ResolvedAgentCommand {
  /** The program's real path (links resolved): what the sandbox runs. */
  program: string;
  /**
   * The folder the program is installed in: the parent of its nearest `node_modules` (an npm package with its
   * dependencies), else the program's own folder. Shared read-only with a sandboxed agent.
   */
  installDir: string;
  /** The adapters' bin folder it was found in, for the agent's PATH (so it can start its siblings), else null. */
  binDir: string | null;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function installDirOf(program: string): string {
  for (let dir = dirname(program); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === 'node_modules') return dirname(dir);
  }
  return dirname(program);
}

export function resolveAgentCommand(command: string, adapterDirs: readonly string[], hostPath: string | undefined): ResolvedAgentCommand {
  const candidates: { path: string; binDir: string | null }[] = [];
  if (isAbsolute(command)) candidates.push({ path: command, binDir: null });
  else if (command.includes('/') || command.includes('\\')) {
    throw new AcpError('ACP_AGENT_MISSING', `the agent's command "${command}" is a relative path: name a program on PATH or give its absolute path`);
  } else {
    for (const dir of adapterDirs) {
      const binDir = join(dir, 'node_modules', '.bin');
      candidates.push({ path: join(binDir, command), binDir });
    }
    for (const dir of (hostPath ?? '').split(delimiter).filter(Boolean)) candidates.push({ path: join(dir, command), binDir: null });
  }
  for (const candidate of candidates) {
    if (!isExecutableFile(candidate.path)) continue;
    const program = realpathSync(candidate.path);
    return { program, installDir: installDirOf(program), binDir: candidate.binDir };
  }
  throw new AcpError(
    'ACP_AGENT_MISSING',
    `the agent's program "${command}" was not found${isAbsolute(command) ? '' : ` in ${[...adapterDirs.map((d) => join(d, 'node_modules', '.bin')), 'PATH'].join(', ')}`}: install the agent (Agents → Install), or fix its command`,
  );
}
