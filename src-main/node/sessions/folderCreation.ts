import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, normalize } from 'node:path';
import type { CreatedFolder } from '../../../src-preload/contract';
import { DomainError } from '../base/domainError';

/**
 * The folder the user typed, made ready to create: absolute, without ".." (a path that climbs would make a folder
 * somewhere other than the one the user read), with "." and doubled or trailing slashes tidied away.
 */
export function folderToCreate(input: string): string {
  if (input.includes('\0')) throw new DomainError('invalid_input', 'a folder path cannot contain a NUL byte');
  if (!isAbsolute(input)) throw new DomainError('invalid_input', `"${input}" is not an absolute path; give the full path, e.g. /home/you/project`);
  if (input.split('/').includes('..')) {
    throw new DomainError('invalid_input', `"${input}" has a ".." segment; write the folder's full path without "..", e.g. ${normalize(input)}`);
  }
  const path = normalize(input);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The folders of `path` that do not exist yet, outermost first; an existing file on the way is an error. */
function missingFolders(path: string): string[] {
  const missing: string[] = [];
  let at = path;
  for (;;) {
    let stat;
    try {
      stat = statSync(at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: a file on the way; going up finds it and says so.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw new DomainError('state', `"${at}" cannot be looked at (${code ?? 'error'}); pick a folder you can write to`);
      }
      missing.unshift(at);
      const up = dirname(at);
      if (up === at) return missing;
      at = up;
      continue;
    }
    if (!stat.isDirectory()) throw new DomainError('conflict', `"${at}" is a file, so no folder can be made inside it; pick another path`);
    return missing;
  }
}

/**
 * mkdir -p of exactly `input` (see folderToCreate), called only when the user has clicked to create it. Says which
 * folders it made, so the UI can report them; an existing folder is not an error (nothing is made).
 */
export function createFolder(input: string): CreatedFolder {
  const path = folderToCreate(input);
  const missing = missingFolders(path);
  if (missing.length > 0) {
    try {
      mkdirSync(path, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
        throw new DomainError('state', `no permission to create "${missing[0]}"; pick a folder you can write to`);
      }
      throw error;
    }
  }
  return { path: realpathSync(path), created: missing };
}
