import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { SkippedFile } from '../../../src-preload/contract/changes';
import { nulFields, type ShadowGit } from './shadowGit';

/** Every pathspec of a snapshot: the whole workspace but the host's .meta (whatever its .gitignore files say). */
export const SNAPSHOT_PATHSPEC = ['--', '.', ':(exclude,top).meta'];

/** The entry's lstat, or null when there is none (gone, or a parent is no longer a folder). */
function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

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
 * - unreadable: a file this user may not read, or whose name is not valid UTF-8;
 * - special: a nested repository (a folder with a .git file or folder, e.g. a submodule: its files are its own
 *   repository's business), a FIFO, socket or device.
 * A left-out path is also taken out of the index, so a file that grew over the cap does not stay in the snapshots
 * with old content.
 */
export async function stageWorkspace(git: ShadowGit, workspace: string, maxFileBytes: number): Promise<{ skipped: SkippedFile[]; listed: number; listingMs: number }> {
  // update-index starts beside the listing and waits for the paths on its stdin: its start and its read of the index
  // (which the listing leaves as it is) overlap the listing instead of following it (docs/performance.md#changes-snapshots).
  // It holds the index's lock until it exits, so it is always given its input, possibly none, before anything else
  // writes the index.
  let storePaths!: (paths: readonly string[]) => void;
  const updating = git.run(['update-index', '-z', '--add', '--remove', '--replace', '--stdin'], {
    input: new Promise<string>((resolve) => {
      storePaths = (paths) => resolve(paths.length === 0 ? '' : paths.join('\0') + '\0');
    }),
  });
  // It can fail (an index git cannot read) while the listing still runs: that failure is the snapshot's, reported
  // when it is awaited below, never an unhandled rejection that would end the host.
  updating.catch(() => undefined);
  try {
    return await listAndStage(git, workspace, maxFileBytes, async (paths) => {
      storePaths(paths);
      await updating;
    });
  } finally {
    storePaths([]);
    await updating.catch(() => undefined);
  }
}

async function listAndStage(
  git: ShadowGit,
  workspace: string,
  maxFileBytes: number,
  update: (paths: readonly string[]) => Promise<void>,
): Promise<{ skipped: SkippedFile[]; listed: number; listingMs: number }> {
  // One walk for all three lists (docs/performance.md#changes-snapshots: two processes in parallel were not faster).
  const started = performance.now();
  const output = (await git.run(['ls-files', '-z', '-o', '-m', '-d', '--exclude-standard', ...SNAPSHOT_PATHSPEC])).stdout;
  const listingMs = performance.now() - started;
  const listed = nulFields(output);
  if (listed.length === 0) {
    await update([]);
    return { skipped: [], listed: 0, listingMs };
  }
  const skipped: SkippedFile[] = [];
  // Paths travel as UTF-8 text (the contract, the UI): a name that is not valid UTF-8 cannot be named exactly, so it
  // is reported (with its name as decoded) instead of being stored under a wrong one.
  const misnamed = new Set<string>();
  if (listed.some((entry) => entry.includes('\uFFFD'))) {
    let start = 0;
    for (let end = output.indexOf(0); end !== -1; start = end + 1, end = output.indexOf(0, start)) {
      const raw = output.subarray(start, end);
      const text = raw.toString('utf8');
      if (!Buffer.from(text, 'utf8').equals(raw)) misnamed.add(text);
    }
  }
  const toUpdate: string[] = [];
  const toRemove: string[] = [];
  const nestedRepos = new Set<string>();
  const folders = new Map<string, Folder>();
  const seen = new Set<string>();
  for (let i = 0; i < listed.length; i++) {
    // Synchronous lstat calls (each a few µs; a snapshot usually checks a handful of paths), with a turn of the event
    // loop every so often when the whole workspace is new.
    if (i > 0 && i % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    const entry = listed[i];
    if (seen.has(entry)) continue; // -m and -d both list a deleted file
    seen.add(entry);
    if (misnamed.has(entry)) {
      skipped.push({ path: entry, reason: 'unreadable' });
      continue;
    }
    // git lists a folder it recognises as a repository of its own with a trailing slash and does not go in.
    if (entry.endsWith('/')) {
      nestedRepos.add(entry.slice(0, -1));
      toRemove.push(entry.slice(0, -1));
      continue;
    }
    const above = checkFolders(workspace, entry, folders);
    if (above.kind === 'repository') {
      nestedRepos.add(above.folder);
      toRemove.push(entry);
      continue;
    }
    if (above.kind === 'link') {
      toRemove.push(entry); // a folder of it was replaced by a link: the link itself is listed on its own
      continue;
    }
    const stat = statOrNull(join(workspace, entry));
    if (stat === null || stat.isSymbolicLink()) {
      toUpdate.push(entry); // gone (update-index --remove drops it), or a link, stored as a link
    } else if (stat.isFile()) {
      if (stat.size > maxFileBytes) {
        skipped.push({ path: entry, reason: 'too_large', size: stat.size });
        toRemove.push(entry);
      } else if (!readable(stat)) {
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
  }
  for (const repo of nestedRepos) skipped.push({ path: repo, reason: 'special' });
  // Many new files (a session's first snapshot): `git add` of the same paths writes their objects several times
  // faster than update-index (docs/performance.md#changes-snapshots), once the waiting update-index has let the index go.
  const many = toUpdate.length > MANY_PATHS;
  await update(many ? [] : toUpdate);
  if (toRemove.length > 0) await git.run(['update-index', '-z', '--force-remove', '--stdin'], { input: toRemove.join('\0') + '\0' });
  // Literal pathspecs: a name with '*' is itself.
  if (many) await git.run(['--literal-pathspecs', 'add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: toUpdate.join('\0') + '\0' });
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { skipped, listed: listed.length, listingMs };
}

/** Above this many paths to store, `git add` takes them (see where it is used); below, update-index is as fast or faster. */
const MANY_PATHS = 1000;

/** What a folder above a listed path is: a plain folder, a repository of its own (it holds a .git), or not a folder now. */
interface Folder {
  kind: 'folder' | 'repository' | 'link';
}

/**
 * The outermost folder above `path` that is a nested repository (holds a .git file or folder; the workspace's own
 * .git does not count) or that is no longer a folder (a link: git refuses paths beyond one, and so do we).
 */
function checkFolders(workspace: string, path: string, folders: Map<string, Folder>): { kind: 'folder' } | { kind: 'repository' | 'link'; folder: string } {
  let end = path.indexOf('/');
  while (end !== -1) {
    const dir = path.slice(0, end);
    let folder = folders.get(dir);
    if (!folder) {
      const stat = statOrNull(join(workspace, dir));
      // A folder that is gone: its files were deleted, nothing to check above them.
      if (stat !== null && !stat.isDirectory()) folder = { kind: 'link' };
      else folder = { kind: stat !== null && statOrNull(join(workspace, dir, '.git')) !== null ? 'repository' : 'folder' };
      folders.set(dir, folder);
    }
    if (folder.kind !== 'folder') return { kind: folder.kind, folder: dir };
    end = path.indexOf('/', end + 1);
  }
  return { kind: 'folder' };
}

const uid = process.getuid?.() ?? -1;
const groups = new Set(process.getgroups?.() ?? []);

/** Whether this process may read the file, from its mode bits (root reads all): git would fail the whole update on one it cannot. */
function readable(stat: Stats): boolean {
  if (uid === 0 || uid === -1) return true;
  if (stat.uid === uid) return (stat.mode & 0o400) !== 0;
  if (groups.has(stat.gid)) return (stat.mode & 0o040) !== 0;
  return (stat.mode & 0o004) !== 0;
}
