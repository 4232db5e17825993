import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { StagedCommitError } from './nativeSandboxErrors';
import { isAlive } from '../../base/processTable';

/**
 * A run's writes, held back until it succeeds. The workspace is the lower layer of an overlay mounted inside the
 * sandbox's own user namespace; everything the run writes lands in the upper directory (new and changed files
 * whole, deletions as whiteouts: character devices 0:0, a replaced directory marked opaque). When the run ends the
 * sandbox lists, for every directory the run touched, what the merged view holds (the manifest), so deletions and
 * opaque directories are known without reading overlay xattrs (which Node cannot). Committing moves the upper
 * layer's files into the workspace by rename (a copy across filesystems) and deletes what the run deleted;
 * discarding removes the upper layer. A killed run never wrote its manifest and is never committed.
 */
export interface StagingDirs {
  upper: string;
  work: string;
  manifest: string;
}

export function prepareStaging(runDir: string, workspace: string): StagingDirs {
  const dirs = { upper: join(runDir, 'upper'), work: join(runDir, 'work'), manifest: join(runDir, 'manifest') };
  mkdirSync(dirs.upper);
  mkdirSync(dirs.work, { mode: 0o700 });
  // The overlay shows the upper directory's mode for the workspace root: keep the workspace's own.
  chmodSync(dirs.upper, lstatSync(workspace).mode & 0o7777);
  return dirs;
}

/**
 * The manifest the sandbox writes at the end of the run: for each directory of the upper layer, a NUL, its path
 * ("." or "./a/b"), a NUL, then each name the merged directory holds, NUL-terminated.
 */
export function parseManifest(bytes: Buffer): Map<string, Set<string>> {
  const tokens = bytes.toString('utf8').split('\0');
  const dirs = new Map<string, Set<string>>();
  let current: Set<string> | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === '') {
      if (i + 1 >= tokens.length || tokens[i + 1] === '') continue;
      const path = tokens[++i];
      current = new Set();
      dirs.set(path === '.' ? '' : path.replace(/^\.\//, ''), current);
    } else current?.add(token);
  }
  return dirs;
}

function isWhiteout(stat: Stats): boolean {
  return stat.isCharacterDevice() && stat.rdev === 0;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Moves a file or symlink into place, replacing whatever is there (a directory included). */
function place(from: string, to: string, stat: Stats): void {
  const existing = lstatOrNull(to);
  if (existing?.isDirectory()) rmSync(to, { recursive: true, force: true });
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    rmSync(to, { force: true });
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else {
      copyFileSync(from, to);
      chmodSync(to, stat.mode & 0o7777);
    }
  }
}

function commitDir(upper: string, workspace: string, rel: string, manifest: Map<string, Set<string>>): void {
  const from = join(upper, rel);
  const to = join(workspace, rel);
  const merged = manifest.get(rel);
  if (!merged) throw new StagedCommitError(`the manifest has no entry for "${rel || '.'}"`);
  const target = lstatOrNull(to);
  if (target && !target.isDirectory()) rmSync(to, { force: true });
  if (!target || !target.isDirectory()) mkdirSync(to);
  if (rel !== '') chmodSync(to, lstatSync(from).mode & 0o7777);
  // Deletions: what the workspace holds here that the run's view no longer did (whiteouts, opaque directories).
  for (const name of readdirSync(to)) {
    if (!merged.has(name)) rmSync(join(to, name), { recursive: true, force: true });
  }
  for (const name of readdirSync(from)) {
    const stat = lstatSync(join(from, name));
    if (isWhiteout(stat)) continue;
    const childRel = rel ? `${rel}/${name}` : name;
    if (stat.isDirectory()) commitDir(upper, workspace, childRel, manifest);
    else if (stat.isFile() || stat.isSymbolicLink()) place(join(from, name), join(to, name), stat);
    // Sockets and fifos a run left behind are not carried over.
  }
}

/** Applies the run's writes to the workspace. Throws StagedCommitError when the run did not finish its manifest. */
export function commitStaging(dirs: StagingDirs, workspace: string): void {
  let manifest: Map<string, Set<string>>;
  try {
    if (!existsSync(`${dirs.manifest}.complete`)) throw new Error('incomplete');
    manifest = parseManifest(readFileSync(dirs.manifest));
  } catch {
    throw new StagedCommitError('the run did not finish (no manifest of its writes); its writes were dropped');
  }
  // An empty manifest: the run wrote nothing.
  if (manifest.size === 0) return;
  try {
    commitDir(dirs.upper, workspace, '', manifest);
  } catch (error) {
    if (error instanceof StagedCommitError) throw error;
    throw new StagedCommitError((error as Error).message);
  }
}

/** Removes a run directory, the overlay's mode-000 work directory included (a non-root owner cannot list it as it is). */
export function removeRunDir(dir: string): void {
  for (const sub of ['work/work', 'work/index']) {
    try {
      chmodSync(join(dir, sub), 0o700);
    } catch {
      // not there
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Removes what earlier host processes left in `root` when they died before disposing their runs (a crash, a
 * kill -9): per-run directories and /etc snapshots whose owning process no longer exists.
 */
export function sweepStaleRunDirs(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^omni-native-(?:etc-)?(\d+)-/.exec(name);
    if (!match || Number(match[1]) === process.pid || isAlive(Number(match[1]))) continue;
    try {
      removeRunDir(join(root, name));
    } catch {
      // someone else's, or already gone
    }
  }
}

