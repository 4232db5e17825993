import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { DiskQuotaHit } from './launchPolicy';
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
 *
 * The upper and work directories live on a tmpfs of `limitBytes` that the sandbox mounts in its own mount namespace
 * (launchScripts.ts): the kernel refuses the write that would pass the limit (ENOSPC), so the run can never hold
 * more, however it writes (many small files, fallocate, mmap). A disk directory cannot be bounded like that by an
 * unprivileged process: project quotas need root, and no disk filesystem can be mounted in a user namespace; watching
 * the directory's size and killing the run lets a write at page-cache speed overshoot by gigabytes between two looks.
 * The price: staged bytes are memory (swappable) while the run lasts, and count toward the run's memory limit when it
 * has one (the kernel charges tmpfs pages to the cgroup of the process that writes them): one budget for what the run
 * holds. The tmpfs goes with the sandbox's mount namespace, so a crashed host leaves no staged data behind. After a
 * run that exited 0 without filling it, the sandbox copies the upper layer (holes and hard links kept) to `upper` on
 * disk, under the app home, for the host to commit; `full` records that it filled up instead.
 */
export interface StagingDirs {
  /** The tmpfs's mount point (an empty directory outside the sandbox). */
  mount: string;
  /** On disk: the upper layer as copied out after a successful run. */
  upper: string;
  manifest: string;
  /** Created by the sandbox, holding "bytes" or "inodes", when the run filled its staging. */
  full: string;
  limitBytes: number;
  /** Files and folders the staging may hold: one per 4 KiB of the limit (an empty file costs no bytes on tmpfs). */
  inodes: number;
  /** The workspace root's mode (octal), which the overlay shows for the root: the upper directory gets it. */
  rootMode: string;
}

const PAGE = 4096;

export function prepareStaging(runDir: string, workspace: string, limitBytes: number): StagingDirs {
  const dirs: StagingDirs = {
    mount: join(runDir, 'staging'),
    upper: join(runDir, 'upper'),
    manifest: join(runDir, 'manifest'),
    full: join(runDir, 'staging-full'),
    limitBytes,
    // A few for the overlay's own (the upper and work directories, its index).
    inodes: Math.floor(limitBytes / PAGE) + 8,
    rootMode: (lstatSync(workspace).mode & 0o7777).toString(8),
  };
  mkdirSync(dirs.mount, { mode: 0o700 });
  mkdirSync(dirs.upper, { mode: 0o700 });
  return dirs;
}

function formatBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/**
 * Whether the run reached its staging limit: the sandbox saw the staging full (bytes or files), or the copied-out
 * files add up to more than the limit as they would land in the workspace, where a sparse file or each name of a
 * hard-linked file takes its full size once copied across filesystems (the tmpfs counted only the pages written).
 */
export function readQuotaHit(dirs: StagingDirs): DiskQuotaHit | null {
  const limit = formatBytes(dirs.limitBytes);
  const fix = 'write less in one run (build outputs, caches and downloads count), or raise the staged-writes limit (stagedWriteBytes)';
  let full: string | null = null;
  try {
    full = readFileSync(dirs.full, 'utf8').trim();
  } catch {
    // not full
  }
  if (full === 'inodes') {
    return { limitBytes: dirs.limitBytes, message: `disk quota: the run created ${dirs.inodes} files and folders, as many as a staged-writes limit of ${limit} allows; the run was ended and its writes dropped (nothing reached the workspace). Fix: ${fix}` };
  }
  if (full !== null) {
    return { limitBytes: dirs.limitBytes, message: `disk quota: the run's staged writes reached their limit of ${limit}; the run was ended and its writes dropped (nothing reached the workspace). Fix: ${fix}` };
  }
  if (!existsSync(`${dirs.manifest}.complete`)) return null;
  const landing = landingBytes(dirs.upper, dirs.limitBytes);
  if (landing <= dirs.limitBytes) return null;
  return {
    limitBytes: dirs.limitBytes,
    message: `disk quota: the run's files would take more than ${limit} in the workspace (sparse files and each name of a hard-linked file count at their full size); its writes were dropped (nothing reached the workspace). Fix: ${fix}`,
  };
}

/** The apparent size of every file under `dir`, each name counted; stops counting once past `stopAbove`. */
function landingBytes(dir: string, stopAbove: number): number {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0 && total <= stopAbove) {
    const current = pending.pop()!;
    let names: string[];
    try {
      names = readdirSync(current);
    } catch {
      continue;
    }
    for (const name of names) {
      const stat = lstatOrNull(join(current, name));
      if (!stat) continue;
      if (stat.isDirectory()) pending.push(join(current, name));
      else if (stat.isFile() || stat.isSymbolicLink()) total += stat.size;
    }
  }
  return total;
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
 * kill -9): per-run directories and /etc snapshots (named by the process id that made them) whose owner no longer
 * exists, or, in a root only this host uses (`exclusive`: the app home's), that another process made. Anything else,
 * and anything that is not a real directory (a link to elsewhere), is left alone.
 */
export function sweepStaleRunDirs(root: string, options: { exclusive?: boolean } = {}): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^omni-native-(?:etc-)?(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    if (!match || Number(match[1]) === process.pid || (!options.exclusive && isAlive(Number(match[1])))) continue;
    const path = join(root, name);
    if (!lstatOrNull(path)?.isDirectory()) continue;
    try {
      removeRunDir(path);
    } catch {
      // someone else's, or already gone
    }
  }
}
