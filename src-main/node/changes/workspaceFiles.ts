import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, readFile, rename, rmdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UnsafeWorkspacePathError } from './changesErrors';

/** A git tree entry's mode, as the files of a snapshot have them. */
export type BlobMode = '100644' | '100755' | '120000';

/**
 * Checks a workspace-relative path as git writes them ('/'-separated, no leading '/'): nothing absolute, no "." or
 * ".." component, no empty component, no NUL, nothing under .git or .meta (never part of a snapshot).
 */
export function checkWorkspacePath(path: string): string[] {
  if (path === '' || path.includes('\0')) throw new UnsafeWorkspacePathError(path, 'the path is empty or holds a NUL character');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) throw new UnsafeWorkspacePathError(path, 'the path must be relative to the workspace, with "/" between folders');
  const parts = path.split('/');
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..') throw new UnsafeWorkspacePathError(path, 'the path must not hold "..", "." or an empty folder name');
  }
  if (parts[0] === '.meta' || parts.some((part) => part.toLowerCase() === '.git')) throw new UnsafeWorkspacePathError(path, '.git and .meta are never written by a restore');
  return parts;
}

/**
 * Checks every folder above `path` inside the workspace: each must be a real folder, not a symbolic link (writing
 * through one could land outside the workspace). Missing folders are created when `create`; returns false when one
 * is missing and not created.
 */
async function checkParents(workspace: string, parts: readonly string[], path: string, create: boolean): Promise<boolean> {
  let dir = workspace;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    const stat = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (stat === null) {
      if (!create) return false;
      await mkdir(dir);
      continue;
    }
    if (stat.isSymbolicLink()) throw new UnsafeWorkspacePathError(path, `${dir} is a symbolic link now, and a restore never writes through one. Replace the link by a folder (or remove it) first`);
    if (!stat.isDirectory()) throw new UnsafeWorkspacePathError(path, `${dir} is a file now, not a folder. Move it away first`);
  }
  return true;
}

/** The entry at `path` without following a link: null when there is none (or a parent is missing). */
export async function lstatInWorkspace(workspace: string, path: string): Promise<Stats | null> {
  const parts = checkWorkspacePath(path);
  if (!(await checkParents(workspace, parts, path, false))) return null;
  return lstat(join(workspace, path)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    throw error;
  });
}

/** A regular file's bytes; never through a link (O_NOFOLLOW), null when it is not a regular file. */
export async function readWorkspaceFile(workspace: string, path: string): Promise<Buffer | null> {
  const stat = await lstatInWorkspace(workspace, path);
  if (!stat || !stat.isFile()) return null;
  const handle = await open(join(workspace, path), constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await readFile(handle);
  } finally {
    await handle.close();
  }
}

/**
 * Puts `content` at `path` with the snapshot's mode: a file (executable bit as stored) or a symbolic link (content is
 * its target; it is created, never followed). Written to a temporary name beside it and renamed over, so the file is
 * never seen half-written.
 */
export async function writeWorkspaceEntry(workspace: string, path: string, content: Buffer, mode: BlobMode): Promise<void> {
  const parts = checkWorkspacePath(path);
  await checkParents(workspace, parts, path, true);
  const target = join(workspace, path);
  const existing = await lstat(target).catch(() => null);
  if (existing?.isDirectory()) throw new UnsafeWorkspacePathError(path, 'a folder is there now; move it away first');
  const temporary = join(dirname(target), `.omni-restore-${randomBytes(6).toString('hex')}`);
  try {
    if (mode === '120000') {
      await symlink(content.toString('utf8'), temporary);
    } else {
      const permissions = mode === '100755' ? 0o755 : 0o644;
      await writeFile(temporary, content, { mode: permissions, flag: 'wx' });
      // The file mode given to open is masked by the umask; the snapshot's executable bit is not.
      await chmod(temporary, permissions);
    }
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Deletes the file or link at `path` (a folder there is left alone), then the folders above it that this left empty,
 * up to the workspace, as git does when it removes a file.
 */
export async function deleteWorkspaceEntry(workspace: string, path: string): Promise<void> {
  const parts = checkWorkspacePath(path);
  const stat = await lstatInWorkspace(workspace, path);
  if (!stat || stat.isDirectory()) return;
  await unlink(join(workspace, path));
  for (let depth = parts.length - 1; depth > 0; depth--) {
    try {
      await rmdir(join(workspace, ...parts.slice(0, depth)));
    } catch {
      break; // not empty (or gone): the folders above are not empty either
    }
  }
}
