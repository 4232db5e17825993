import { lstatSync } from 'node:fs';
import { writeFileDurably } from '../base/durableWrite';
import { MetaPathError, metaPaths, MetaState } from './metaShell';
import { ensureMetaDir } from './metaShell/metaFiles';
import { DomainError } from '../base/domainError';

export interface ContextFileContent {
  text: string | null;
  sha256: string | null;
  bytes: number;
}

/** `.meta/context.md` of a workspace as the editor loads it (never read through a link: MetaState refuses one). */
export function readContextFile(workspace: string): ContextFileContent {
  // A .meta that is a link would have the editor show (and the planner read) a file from wherever it points.
  const dir = metaPaths(workspace).dir;
  let isLink = false;
  try {
    isLink = lstatSync(dir).isSymbolicLink();
  } catch {
    // No .meta yet: no context.md.
  }
  if (isLink) throw new MetaPathError(dir, 'is a symbolic link');
  const context = new MetaState(workspace).readContext();
  return context ? { text: context.text, sha256: context.sha256, bytes: context.bytes } : { text: null, sha256: null, bytes: 0 };
}

/**
 * The user's save of context.md: durable (temporary file, fsync, rename), into a real `.meta` folder. When the editor
 * says which version it loaded (`expectedSha256`, null for "there was none") and the file on disk is another one (an
 * edit in another window or editor), nothing is written: CONFLICT, so nobody's edit is lost silently. The check and
 * the write run in one synchronous step, so two saves through this host cannot interleave.
 */
export function writeContextFile(workspace: string, text: string, expectedSha256: string | null | undefined): void {
  if (expectedSha256 !== undefined) {
    const current = readContextFile(workspace).sha256;
    if (current !== expectedSha256) {
      throw new DomainError('conflict',
        current === null
          ? '.meta/context.md was removed since the editor loaded it; reload it, then save again'
          : '.meta/context.md changed on disk since the editor loaded it (another window or editor saved it); reload it to see that version, then save again',
      );
    }
  }
  const paths = metaPaths(workspace);
  ensureMetaDir(paths);
  writeFileDurably(paths.context, text);
}
