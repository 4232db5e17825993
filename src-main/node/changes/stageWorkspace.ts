import type { Stats } from 'node:fs';
import { access, constants, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SkippedFile } from '../../../src-preload/contract/changes';
import { nulFields, type ShadowGit } from './shadowGit';

/** Every pathspec of a snapshot: the whole workspace but the host's .meta (whatever its .gitignore files say). */
export const SNAPSHOT_PATHSPEC = ['--', '.', ':(exclude,top).meta'];

const statOrNull = (path: string): Promise<Stats | null> => lstat(path).catch(() => null);

/**
 * Brings the store's index up to the workspace as it is now, and says what was left out.
 *
 * git itself finds what changed since the index was last written: `ls-files -o -m -d --exclude-standard` lists new
 * files (ignoring what the workspace's .gitignore files ignore), modified and deleted ones. It compares each indexed
 * file's stat data with the disk and, for a file written in the same second as the index (git's "racily clean"
 * entries), its content, so a same-size edit within the second is not missed. Only the listed paths are then
 * checked here and handed to `update-index`; the rest of the index (and its cached trees) stays as is.
 *
 * Left out, and reported:
 * - too_large: a file over `maxFileBytes` (only its size is read, never its content);
 * - unreadable: a file this user may not read;
 * - special: a nested repository (a folder with a .git file or folder, e.g. a submodule: its files are its own
 *   repository's business), a FIFO, socket or device.
 * A left-out path is also taken out of the index, so a file that grew over the cap does not stay in the snapshots
 * with old content.
 */
export async function stageWorkspace(git: ShadowGit, workspace: string, maxFileBytes: number): Promise<{ skipped: SkippedFile[]; staged: number }> {
  const [changed, added] = await Promise.all([
    git.run(['diff-files', '-z', '--name-only', '--no-renames', ...SNAPSHOT_PATHSPEC]),
    git.run(['ls-files', '-z', '-o', '--exclude-standard', ...SNAPSHOT_PATHSPEC]),
  ]);
  const listed = [...nulFields(changed.stdout), ...nulFields(added.stdout)];
  if (listed.length === 0) return { skipped: [], staged: 0 };
  const skipped: SkippedFile[] = [];
  const toUpdate: string[] = [];
  const toRemove: string[] = [];
  const nestedRepos = new Set<string>();
  const hasGit = new Map<string, Promise<boolean>>();
  const isNestedRepo = (dir: string): Promise<boolean> => {
    let known = hasGit.get(dir);
    if (!known) {
      known = statOrNull(join(workspace, dir, '.git')).then((stat) => stat !== null);
      hasGit.set(dir, known);
    }
    return known;
  };
  /** The outermost folder above `path` that holds a .git, if any (the workspace's own .git does not count). */
  const enclosingRepo = async (path: string): Promise<string | null> => {
    let end = path.indexOf('/');
    while (end !== -1) {
      const dir = path.slice(0, end);
      if (await isNestedRepo(dir)) return dir;
      end = path.indexOf('/', end + 1);
    }
    return null;
  };
  const dirIsReal = new Map<string, Promise<boolean>>();
  /** Whether a folder above `path` is a link (or no folder) now: git refuses paths beyond a link, and so do we. */
  const beyondLink = async (path: string): Promise<boolean> => {
    let end = path.indexOf('/');
    while (end !== -1) {
      const dir = path.slice(0, end);
      let real = dirIsReal.get(dir);
      if (!real) {
        real = statOrNull(join(workspace, dir)).then((stat) => stat === null || stat.isDirectory());
        dirIsReal.set(dir, real);
      }
      if (!(await real)) return true;
      end = path.indexOf('/', end + 1);
    }
    return false;
  };
  const seen = new Set<string>();
  await Promise.all(
    listed.map(async (entry) => {
      if (seen.has(entry)) return; // -m and -d both list a deleted file
      seen.add(entry);
      // git lists a folder it recognises as a repository of its own with a trailing slash and does not go in.
      if (entry.endsWith('/')) {
        nestedRepos.add(entry.slice(0, -1));
        toRemove.push(entry.slice(0, -1));
        return;
      }
      const repo = await enclosingRepo(entry);
      if (repo !== null) {
        nestedRepos.add(repo);
        toRemove.push(entry);
        return;
      }
      if (await beyondLink(entry)) {
        toRemove.push(entry); // a folder of it was replaced by a link: the link itself is listed on its own
        return;
      }
      const stat = await statOrNull(join(workspace, entry));
      if (stat === null || stat.isSymbolicLink()) {
        toUpdate.push(entry); // gone (update-index --remove drops it), or a link, stored as a link
      } else if (stat.isFile()) {
        if (stat.size > maxFileBytes) {
          skipped.push({ path: entry, reason: 'too_large', size: stat.size });
          toRemove.push(entry);
        } else if (!(await access(join(workspace, entry), constants.R_OK).then(() => true, () => false))) {
          skipped.push({ path: entry, reason: 'unreadable' });
          toRemove.push(entry);
        } else {
          toUpdate.push(entry);
        }
      } else if (stat.isDirectory()) {
        toRemove.push(entry); // a tracked file that is a folder now: its files are listed on their own
      } else {
        skipped.push({ path: entry, reason: 'special' });
        toRemove.push(entry);
      }
    }),
  );
  for (const repo of nestedRepos) skipped.push({ path: repo, reason: 'special' });
  if (toRemove.length > 0) await git.run(['update-index', '-z', '--force-remove', '--stdin'], { input: toRemove.join('\0') + '\0' });
  if (toUpdate.length > 0) await git.run(['update-index', '-z', '--add', '--remove', '--replace', '--stdin'], { input: toUpdate.join('\0') + '\0' });
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { skipped, staged: toUpdate.length };
}
