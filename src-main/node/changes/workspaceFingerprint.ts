import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import type { SkippedFile } from '../../../src-preload/contract/changes';
import { nulFields, type ShadowGit } from './shadowGit';
import { SNAPSHOT_PATHSPEC } from './stageWorkspace';

/** Above this many files and folders a workspace is not fingerprinted: checking it would cost what git costs. */
export const MAX_FINGERPRINT_ENTRIES = 5000;

/**
 * An entry whose mtime or ctime is less than this before the snapshot began is "racy": it may have changed while the
 * snapshot read it or since, and a change within one timestamp tick (on FAT, 2 s) can leave its stat as it was. Its
 * content (a folder's: its names) is compared with the snapshot's when recorded and again at every check.
 */
const RACY_NS = 3_000_000_000n;

interface FileRecord {
  path: string;
  stat: StatKey;
  /** For a racy file: its blob id in the index, compared with its content at every check. */
  blob?: string;
}

interface FolderRecord {
  path: string;
  stat: StatKey;
  /** For a racy folder: its entries' names, compared at every check. */
  names?: string;
}

/** What of an lstat changes when an entry does: any write sets ctime (which no one can set back), a replace the inode. */
type StatKey = string;

function statKey(stat: BigIntStats): StatKey {
  return `${stat.ino}:${stat.mode}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

function lstatOrNull(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

function namesOf(folder: string): string {
  return readdirSync(folder).sort().join('\0');
}

/** git's blob id of a file's content (or a link's target): what the store's index holds for an unchanged file. */
function blobIdOf(path: string, stat: BigIntStats): string {
  const content = stat.isSymbolicLink() ? Buffer.from(readlinkSync(path, { encoding: 'buffer' })) : readFileSync(path);
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/**
 * Proof that a workspace is still exactly as the store's last snapshot recorded it, checked without git (a snapshot
 * is two git processes even when nothing changed, and a conversation's prompt waits for one): the lstat of every
 * file and folder the snapshot covers, taken right after it, from the store's own index and git's own list of what is
 * ignored. A file added, removed or renamed changes its folder's mtime; a write, chmod or replace changes the file's
 * ctime or inode; an entry recorded within a timestamp tick of a change has its content (or names) compared too.
 *
 * Recorded only when the walk and the index agree exactly (every indexed file found, every file found indexed,
 * ignored or reported as skipped); anything else (a tracked file in an ignored folder, a name that is not UTF-8, a
 * folder that cannot be read, too many entries) gives no fingerprint, and the next snapshot runs git.
 */
export class WorkspaceFingerprint {
  private constructor(
    private readonly workspace: string,
    private readonly files: readonly FileRecord[],
    private readonly folders: readonly FolderRecord[],
  ) {}

  /**
   * Fingerprints the workspace as the store's index now has it: `skipped` is what the snapshot left out, and
   * `snapshotStartedMs` when it began listing the workspace (anything changed since then is racy).
   */
  static async record(git: ShadowGit, workspace: string, skipped: readonly SkippedFile[], snapshotStartedMs: number): Promise<WorkspaceFingerprint | null> {
    // A large workspace costs no git process: its index says how many files it holds.
    if (indexEntryCount(git.indexFile) > MAX_FINGERPRINT_ENTRIES) return null;
    const racyFrom = BigInt(Math.floor(snapshotStartedMs)) * 1_000_000n - RACY_NS;
    const racy = (stat: BigIntStats) => stat.mtimeNs >= racyFrom || stat.ctimeNs >= racyFrom;
    const [staged, ignoredOut] = await Promise.all([
      git.run(['ls-files', '-z', '-s', ...SNAPSHOT_PATHSPEC]),
      git.run(['ls-files', '-z', '-o', '-i', '--exclude-standard', '--directory', ...SNAPSHOT_PATHSPEC]),
    ]);
    const blobs = new Map<string, string>();
    for (const field of nulFields(staged.stdout)) {
      const tab = field.indexOf('\t');
      const [mode, blob, stage] = field.slice(0, tab).split(' ');
      // A gitlink or a conflict stage is nothing a snapshot writes: let git judge such an index.
      if (stage !== '0' || mode === '160000') return null;
      blobs.set(field.slice(tab + 1), blob);
    }
    const ignored = new Set(nulFields(ignoredOut.stdout).map((path) => path.replace(/\/$/, '')));
    const left = new Set(skipped.map((file) => file.path.replace(/\/$/, '')));
    const files: FileRecord[] = [];
    const folders: FolderRecord[] = [];
    let foundUnstored = false;

    const walk = (relative: string): void => {
      const absolute = relative === '' ? workspace : join(workspace, relative);
      const stat = lstatOrNull(absolute);
      if (!stat?.isDirectory()) throw new NotFingerprintable();
      let names: string[];
      try {
        names = readdirSync(absolute);
      } catch {
        throw new NotFingerprintable();
      }
      folders.push({ path: relative, stat: statKey(stat), names: racy(stat) ? names.slice().sort().join('\0') : undefined });
      for (const name of names) {
        if (name.includes('\uFFFD')) throw new NotFingerprintable();
        if (name === '.git') continue;
        const path = relative === '' ? name : `${relative}/${name}`;
        if (relative === '' && name === '.meta') continue;
        if (files.length + folders.length > MAX_FINGERPRINT_ENTRIES) throw new NotFingerprintable();
        // A .gitignore decides what the others are: always watched, even one that ignores itself.
        if (ignored.has(path) && name !== '.gitignore') continue;
        const entry = lstatOrNull(join(workspace, path));
        if (entry === null) throw new NotFingerprintable();
        if (entry.isDirectory() && !left.has(path)) {
          walk(path);
          continue;
        }
        const blob = blobs.get(path);
        if (blob === undefined && !left.has(path) && !ignored.has(path)) foundUnstored = true;
        blobs.delete(path);
        let record: FileRecord = { path, stat: statKey(entry) };
        if (blob !== undefined && racy(entry)) {
          let current: string;
          try {
            current = blobIdOf(join(workspace, path), entry);
          } catch {
            throw new NotFingerprintable();
          }
          if (current !== blob) throw new NotFingerprintable();
          record = { ...record, blob };
        }
        files.push(record);
      }
    };

    try {
      walk('');
    } catch (error) {
      if (error instanceof NotFingerprintable) return null;
      throw error;
    }
    // An indexed file the walk did not find (in an ignored folder, or gone since), or a file found that the snapshot
    // neither stored nor left out: the snapshot is not the workspace, so there is nothing to vouch for.
    if (blobs.size > 0 || foundUnstored) return null;
    return new WorkspaceFingerprint(workspace, files, folders);
  }

  /** Whether every recorded file and folder is as it was (synchronous: lstat calls, and reads of the racy ones). */
  unchanged(): boolean {
    try {
      for (const folder of this.folders) {
        const absolute = folder.path === '' ? this.workspace : join(this.workspace, folder.path);
        const stat = lstatOrNull(absolute);
        if (stat === null || statKey(stat) !== folder.stat) return false;
        if (folder.names !== undefined && namesOf(absolute) !== folder.names) return false;
      }
      for (const file of this.files) {
        const absolute = join(this.workspace, file.path);
        const stat = lstatOrNull(absolute);
        if (stat === null || statKey(stat) !== file.stat) return false;
        if (file.blob !== undefined && blobIdOf(absolute, stat) !== file.blob) return false;
      }
      return true;
    } catch {
      return false;
    }
  }
}

class NotFingerprintable extends Error {}

/** How many entries a git index holds, from its header ("DIRC", version, count; all big-endian); Infinity if unreadable. */
function indexEntryCount(indexFile: string): number {
  let header: Buffer;
  try {
    const fd = openSync(indexFile, 'r');
    try {
      header = Buffer.alloc(12);
      if (readSync(fd, header, 0, 12, 0) < 12) return Number.POSITIVE_INFINITY;
    } finally {
      closeSync(fd);
    }
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  return header.toString('latin1', 0, 4) === 'DIRC' ? header.readUInt32BE(8) : Number.POSITIVE_INFINITY;
}
