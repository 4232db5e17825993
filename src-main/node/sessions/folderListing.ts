import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FolderEntry, FolderListing } from '../../../src-preload/contract';
import { DomainError } from '../base/domainError';

/** More sub-folders than this and the listing is cut (a folder of 100 000 build outputs must not flood the page). */
export const MAX_LISTED_FOLDERS = 2000;

// Names that are not valid UTF-8 would come back as replacement characters: a path the host could not open again.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodedName(raw: Buffer): string | null {
  try {
    return utf8.decode(raw);
  } catch {
    return null;
  }
}

/** Whether an entry is a folder to offer: a directory, or a link to one the host can stat (a broken or unreadable link is not). */
function isFolder(entry: Dirent<Buffer>, path: string): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The sub-folders of `input` (the user's `home` when none is given), by name. Only directory names leave the host:
 * files are never listed, nothing is read. The folder itself must be one the host can resolve and read; the error
 * says which of the two it is not.
 */
export function listFolders(input: string | undefined, home: string, includeHidden = false): FolderListing {
  const asked = input ?? home;
  let path: string;
  try {
    path = realpathSync(asked);
  } catch {
    throw new DomainError('not_found', `the folder "${asked}" does not exist (or cannot be reached); go up, or type another path`);
  }
  if (!statSync(path).isDirectory()) throw new DomainError('invalid_input', `"${asked}" is a file, not a folder; pick the folder it is in`);
  let entries: Dirent<Buffer>[];
  try {
    entries = readdirSync(path, { withFileTypes: true, encoding: 'buffer' });
  } catch {
    throw new DomainError('state', `the folder "${path}" cannot be read (no permission); go up, or pick another folder`);
  }
  const folders: FolderEntry[] = [];
  for (const entry of entries) {
    const name = decodedName(entry.name);
    if (name === null) continue;
    const hidden = name.startsWith('.');
    if (hidden && !includeHidden) continue;
    const child = join(path, name);
    if (isFolder(entry, child)) folders.push({ name, path: child, hidden });
  }
  folders.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }));
  const parent = dirname(path);
  return {
    path,
    parent: parent === path ? null : parent,
    home,
    folders: folders.slice(0, MAX_LISTED_FOLDERS),
    truncated: folders.length > MAX_LISTED_FOLDERS,
  };
}
