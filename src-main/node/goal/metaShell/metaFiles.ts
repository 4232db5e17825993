import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../../base/domainError';

/** Where a workspace keeps the host's state files (spec/meta-state-files.md). */
export interface MetaPaths {
  workspace: string;
  dir: string;
  /** `.meta/context.md`: the immutable source of truth, written by the user only. */
  context: string;
  /** `.meta/session.json`: the mutable runtime state, written by the host only, atomically, under `lock`. */
  session: string;
  lock: string;
}

export function metaPaths(workspace: string): MetaPaths {
  const dir = join(workspace, '.meta');
  return { workspace, dir, context: join(dir, 'context.md'), session: join(dir, 'session.json'), lock: join(dir, 'session.json.lock') };
}

/** `.meta` (or a file in it) is not what the host can safely use: a symbolic link, or not a folder/file. */
export class MetaPathError extends DomainError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super('state', `${path} ${problem}. The host writes only a real .meta folder inside the workspace: move the link or file away and try again.`);
    this.name = 'MetaPathError';
  }
}

/**
 * Makes sure `.meta` is a real folder of the workspace (created if missing). A symbolic link is refused: whoever
 * planted it (a cloned repository, an agent run before .meta existed) would otherwise choose where the host writes.
 */
export function ensureMetaDir(paths: MetaPaths): void {
  try {
    mkdirSync(paths.dir, { mode: 0o755 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(paths.dir);
  if (stat.isSymbolicLink()) throw new MetaPathError(paths.dir, 'is a symbolic link');
  if (!stat.isDirectory()) throw new MetaPathError(paths.dir, 'is not a folder');
}

/** A file's bytes, or null when it does not exist; never through a symbolic link. */
export function readMetaFile(file: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new MetaPathError(file, 'is a symbolic link');
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new MetaPathError(file, 'is not a regular file');
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
