import { createHash } from 'node:crypto';
import { readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { RestorePlan, SkippedFile } from '../../../src-preload/contract/changes';
import { KeyedQueue } from '../base/keyedQueue';
import { ChangeNotFoundError, HunkNoLongerAppliesError, PathTakenError } from './changesErrors';
import { parseHunks, type FileHunk } from './diffHunks';
import { reverseHunks } from './reverseHunks';
import { nulFields, ShadowGit } from './shadowGit';
import { prepareShadowStore } from './shadowStoreSetup';
import { stageWorkspace } from './stageWorkspace';
import { WorkspaceFingerprint } from './workspaceFingerprint';
import { changedFilesBetween, diffTrees, NO_COMMANDS, type FileChange, type TreeEntryChange } from './treeDiff';
import { checkWorkspacePath, deleteWorkspaceEntry, lstatInWorkspace, readWorkspaceFile, writeWorkspaceEntry, type BlobMode } from './workspaceFiles';

export type { FileChange } from './treeDiff';
export type { FileHunk } from './diffHunks';

export interface SnapshotResult {
  /** The git tree id of the snapshot in the shadow store. */
  tree: string;
  skipped: SkippedFile[];
}

/** The default per-file cap: a file over it is left out of snapshots (reported as too_large). */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * A listing this many times slower than the store's fastest (and slower than the floor, below which a refresh could
 * not win back its own process) refreshes the index: see refreshIfSlow.
 */
const SLOW_LISTING_FACTOR = 3;
const SLOW_LISTING_FLOOR_MS = 100;

/** How many (from, to) pairs' changed-file lists a store keeps. */
const RECENT_PAIRS = 16;

/** git's id of the empty tree: a snapshot to compare the first one with. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** One queue per store across every ShadowStore object of this process, so two never write one index at once. */
const storeQueue = new KeyedQueue();

/**
 * The last snapshot this process took of each store, whose tree its index was last written as (only snapshots write
 * a store's index). When its fingerprint shows nothing changed since (a turn that touched no file, a prompt after a
 * pause), the next snapshot is that tree without a git process; when git lists nothing changed, it is that tree
 * without `write-tree`.
 */
const lastSnapshots = new Map<string, { tree: string; skipped: SkippedFile[]; fingerprint: WorkspaceFingerprint | null }>();

/** Per store, the fingerprint of its last snapshot while it is being recorded. */
const fingerprinting = new Map<string, Promise<void>>();

/**
 * The shadow git store of one workspace (docs/changes.md): snapshots of the workspace's files as git trees, kept
 * under the app home, never in the user's own repository. A snapshot is a tree id; no commit or ref points at it, the
 * changes service keeps the ids. Restores and rejects write the workspace's files directly (never `git checkout`),
 * through paths checked to stay inside the workspace.
 */
export class ShadowStore {
  private fastestListingMs = Number.POSITIVE_INFINITY;
  private readonly recentChanges = new Map<string, Promise<{ files: FileChange[]; entries: TreeEntryChange[] }>>();

  private constructor(
    private readonly git: ShadowGit,
    /** The workspace's real path (symbolic links resolved). */
    readonly workspace: string,
    readonly storeDir: string,
    private readonly maxFileBytes: number,
  ) {}

  /** The store of one workspace: <home>/changes/<first 16 hex of sha256(real workspace path)>/ (a bare git dir + its own index). */
  static async open(home: string, workspace: string, options: { maxFileBytes?: number } = {}): Promise<ShadowStore> {
    const real = await realpath(workspace);
    const storeDir = join(home, 'changes', createHash('sha256').update(real).digest('hex').slice(0, 16));
    const git = new ShadowGit(storeDir, real, join(storeDir, 'index'));
    await storeQueue.run(storeDir, () => prepareShadowStore(git, real));
    return new ShadowStore(git, real, storeDir, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  }

  /** Records the workspace as it is now; concurrent calls on one store are serialised. */
  snapshot(): Promise<SnapshotResult> {
    return storeQueue.run(this.storeDir, async () => {
      const last = lastSnapshots.get(this.storeDir);
      if (last?.fingerprint?.unchanged()) return { tree: last.tree, skipped: [...last.skipped] };
      // Forgotten until this snapshot ends: one that fails half-way leaves an index no tree was written of.
      lastSnapshots.delete(this.storeDir);
      const startedMs = Date.now();
      const { skipped, listed, listingMs } = await stageWorkspace(this.git, this.workspace, this.maxFileBytes);
      let tree = last?.tree;
      if (listed > 0 || tree === undefined) tree = (await this.git.run(['write-tree'])).stdout.toString('utf8').trim();
      const taken = { tree, skipped, fingerprint: null as WorkspaceFingerprint | null };
      lastSnapshots.set(this.storeDir, taken);
      await this.refreshIfSlow(listingMs);
      // Fingerprinted beside whatever comes next, not before it: neither the turn this snapshot opens nor the next
      // snapshot waits for it. It is kept only if no other snapshot began meanwhile (each forgets the last one as it
      // begins), so it always describes the index this snapshot wrote.
      const recording = WorkspaceFingerprint.record(this.git, this.workspace, skipped, startedMs).then(
        (fingerprint) => {
          if (lastSnapshots.get(this.storeDir) === taken) taken.fingerprint = fingerprint;
        },
        () => undefined,
      );
      fingerprinting.set(this.storeDir, recording);
      void recording.then(() => {
        if (fingerprinting.get(this.storeDir) === recording) fingerprinting.delete(this.storeDir);
      });
      return { tree, skipped: [...skipped] };
    });
  }

  /** Resolves once the work a snapshot left running (its fingerprint's git processes) is done. */
  async idle(): Promise<void> {
    await fingerprinting.get(this.storeDir);
  }

  /**
   * Files whose stat data changed but whose content did not (a formatter rewrote them as they were, a `touch`) are
   * not listed by `ls-files -m`, which reads each one's content to tell, at every snapshot, as long as the index
   * keeps their old stat data. When the listing took much longer than the fastest one seen, the index is refreshed
   * (`update-index --refresh`: the stat data of unchanged files brought up to date; no content changes, so the tree
   * stays the same).
   */
  private async refreshIfSlow(listingMs: number): Promise<void> {
    if (listingMs < this.fastestListingMs) this.fastestListingMs = listingMs;
    if (listingMs < SLOW_LISTING_FACTOR * this.fastestListingMs || listingMs < SLOW_LISTING_FLOOR_MS) return;
    await this.git.run(['update-index', '-q', '--refresh'], { allowFail: true });
  }

  /** Added, modified, deleted and renamed files (renames as `git diff -M` finds them), binary or not, +/- counts. */
  async changedFiles(fromTree: string, toTree: string): Promise<FileChange[]> {
    return (await this.changesBetween(fromTree, toTree)).files;
  }

  async fileDiff(fromTree: string, toTree: string, path: string): Promise<{ file: FileChange; hunks: FileHunk[] }> {
    // The file's diff is asked for at the same time as the list that says what the file is: a review opens in the
    // time of one git process. Only a renamed file needs its diff again, with both of its paths.
    const [found, hunks] = await Promise.all([this.findChange(fromTree, toTree, path), this.hunksOf(fromTree, toTree, { path, binary: false })]);
    const { file } = found;
    if (file.binary) return { file, hunks: [] };
    return { file, hunks: file.oldPath !== undefined ? await this.hunksOf(fromTree, toTree, file) : hunks };
  }

  /**
   * What restoring `targetTree` over the workspace recorded as `currentTree` would do to each file. Pass the target
   * snapshot's `skipped` so that a file it left out is not deleted.
   */
  async restorePlan(currentTree: string, targetTree: string, options: { targetSkipped?: readonly SkippedFile[] } = {}): Promise<RestorePlan['files']> {
    const { entries } = await diffTrees(this.git, currentTree, targetTree, { renames: false });
    // What the target snapshot left out (too large then, a nested repository) is not in its tree, yet was there:
    // given the target's skipped list, such a path is not deleted.
    const leftOut = (options.targetSkipped ?? []).map((file) => file.path);
    const wasLeftOut = (path: string) => leftOut.some((skipped) => path === skipped || path.startsWith(`${skipped}/`));
    const plan: RestorePlan['files'] = [];
    for (const entry of entries) {
      if (entry.status === 'D') {
        if (!wasLeftOut(entry.path)) plan.push({ path: entry.path, action: 'delete' });
      } else if (entry.status === 'A') {
        // Not in the current snapshot but on disk: a file the snapshot left out (too large, ignored, unreadable).
        // Such files are never touched.
        if ((await lstatInWorkspace(this.workspace, entry.path).catch(() => null)) !== null) continue;
        plan.push({ path: entry.path, action: 'recreate' });
      } else {
        plan.push({ path: entry.path, action: 'restore' });
      }
    }
    return plan;
  }

  /** Makes the workspace's files match targetTree for the plan's paths (writes, recreates, deletes). */
  restore(targetTree: string, plan: RestorePlan['files']): Promise<void> {
    return storeQueue.run(this.storeDir, async () => {
      // Every path is checked before anything is written (relative, inside, no link above it), so a plan with one
      // unsafe path is refused whole rather than half-applied. A link the plan itself deletes first is no obstacle
      // (the write below it is checked again when it happens).
      const deleted = new Set(plan.filter((item) => item.action === 'delete').map((item) => item.path));
      for (const item of plan) {
        const parts = checkWorkspacePath(item.path);
        const underDeleted = parts.slice(0, -1).some((_, i) => deleted.has(parts.slice(0, i + 1).join('/')));
        if (!underDeleted) await lstatInWorkspace(this.workspace, item.path);
      }
      const wanted = plan.filter((item) => item.action !== 'delete').map((item) => item.path);
      const blobs = await this.treeEntries(targetTree, wanted);
      for (const path of wanted) if (!blobs.has(path)) throw new ChangeNotFoundError(`${path} (in the snapshot restored)`);
      // Deletions first: a file may come back where a folder of added files was.
      for (const item of plan) if (item.action === 'delete') await deleteWorkspaceEntry(this.workspace, item.path);
      for (const path of wanted) {
        const { mode, blob } = blobs.get(path)!;
        await writeWorkspaceEntry(this.workspace, path, await this.blob(blob), mode);
      }
    });
  }

  /** Reverse-applies one hunk of fromTree→toTree to the file on disk now; HunkNoLongerAppliesError if the file changed so it no longer applies. */
  rejectHunk(fromTree: string, toTree: string, path: string, hunkIndex: number): Promise<void> {
    return storeQueue.run(this.storeDir, async () => {
      const { file, entry } = await this.findChange(fromTree, toTree, path);
      const hunks = await this.hunksOf(fromTree, toTree, file);
      const hunk = hunks[hunkIndex];
      if (!hunk) throw new ChangeNotFoundError(`hunk ${hunkIndex + 1} of ${path}`);
      if (entry.status === 'A' || entry.status === 'D' || entry.oldMode === '120000' || entry.newMode === '120000') {
        // The hunk of an added or deleted file, or of a link (a type change included), is the whole file: rejecting
        // it is rejecting the file. (A file whose executable bit also changed keeps its mode when one hunk goes.)
        if (hunks.length === 1) return this.rejectWholeFile(file, entry);
        throw new HunkNoLongerAppliesError(path, hunkIndex);
      }
      const current = await this.currentFile(path, hunkIndex);
      const reverted = reverseHunks(path, current.content, await this.blob(entry.oldBlob), await this.blob(entry.newBlob), [hunk], hunkIndex);
      await writeWorkspaceEntry(this.workspace, path, reverted, current.mode);
    });
  }

  /** Puts the file back as it was in fromTree (deletes it if added, recreates it if deleted); text keeps later edits elsewhere in it. */
  rejectFile(fromTree: string, toTree: string, path: string): Promise<void> {
    return storeQueue.run(this.storeDir, async () => {
      const { file, entry } = await this.findChange(fromTree, toTree, path);
      await this.rejectWholeFile(file, entry);
    });
  }

  private async rejectWholeFile(file: FileChange, entry: TreeEntryChange): Promise<void> {
    const path = file.path;
    if (entry.status === 'A') return deleteWorkspaceEntry(this.workspace, path);
    const oldPath = entry.oldPath ?? path;
    const oldMode = entry.oldMode as BlobMode;
    const oldContent = await this.blob(entry.oldBlob);
    if (entry.status === 'D') {
      if ((await lstatInWorkspace(this.workspace, path)) !== null) throw new PathTakenError(path);
      return writeWorkspaceEntry(this.workspace, path, oldContent, oldMode);
    }
    if (oldPath !== path && (await lstatInWorkspace(this.workspace, oldPath)) !== null) throw new PathTakenError(oldPath);
    const newContent = await this.blob(entry.newBlob);
    let content: Buffer;
    if (file.binary || entry.oldMode === '120000' || entry.newMode === '120000') {
      // No lines to keep: only put it back if it is still as the turn left it.
      const now = entry.newMode === '120000' ? await this.currentLink(path) : await readWorkspaceFile(this.workspace, path);
      if (now === null || !now.equals(newContent)) throw new HunkNoLongerAppliesError(path, null);
      content = oldContent;
    } else {
      const hunks = await this.hunksOfBlobs(entry);
      content = reverseHunks(path, (await this.currentFile(path, null)).content, oldContent, newContent, hunks, null);
    }
    await writeWorkspaceEntry(this.workspace, oldPath, content, oldMode);
    if (oldPath !== path) await deleteWorkspaceEntry(this.workspace, path);
  }

  /**
   * The changes between two trees, kept for the last few pairs: snapshot trees never change, and a review asks for
   * one pair's list, then each of its files.
   */
  private changesBetween(fromTree: string, toTree: string): Promise<{ files: FileChange[]; entries: TreeEntryChange[] }> {
    const key = `${fromTree}..${toTree}`;
    let known = this.recentChanges.get(key);
    if (known) {
      this.recentChanges.delete(key); // most recently used last
    } else {
      known = changedFilesBetween(this.git, fromTree, toTree);
      known.catch(() => this.recentChanges.delete(key));
    }
    this.recentChanges.set(key, known);
    if (this.recentChanges.size > RECENT_PAIRS) this.recentChanges.delete(this.recentChanges.keys().next().value as string);
    return known;
  }

  private async findChange(fromTree: string, toTree: string, path: string): Promise<{ file: FileChange; entry: TreeEntryChange }> {
    const { files, entries } = await this.changesBetween(fromTree, toTree);
    const index = files.findIndex((file) => file.path === path);
    if (index === -1) throw new ChangeNotFoundError(path);
    return { file: files[index], entry: entries[index] };
  }

  /** The file's hunks, as `git diff` shows them (renamed: against its old path). */
  private async hunksOf(fromTree: string, toTree: string, file: Pick<FileChange, 'path' | 'oldPath' | 'binary'>): Promise<FileHunk[]> {
    if (file.binary) return [];
    const paths = file.oldPath !== undefined ? [file.oldPath, file.path] : [file.path];
    // Literal pathspecs: a path with '*' or ':' names only itself.
    const diff = await this.git.run(['--literal-pathspecs', 'diff', ...NO_COMMANDS, '--no-color', '-M', '-U3', fromTree, toTree, '--', ...paths]);
    return parseHunks(diff.stdout.toString('utf8'));
  }

  /** The hunks between the two sides' blobs, with fileDiff's options (so hunk i is the one the user saw). */
  private async hunksOfBlobs(entry: TreeEntryChange): Promise<FileHunk[]> {
    const diff = await this.git.run(['diff', ...NO_COMMANDS, '--no-color', '-U3', entry.oldBlob, entry.newBlob]);
    return parseHunks(diff.stdout.toString('utf8'));
  }

  /** The file on disk now, which a hunk is reverted in: a regular file (never through a link). */
  private async currentFile(path: string, hunkIndex: number | null): Promise<{ content: Buffer; mode: BlobMode }> {
    const stat = await lstatInWorkspace(this.workspace, path);
    const content = stat?.isFile() ? await readWorkspaceFile(this.workspace, path) : null;
    if (!stat || content === null) throw new HunkNoLongerAppliesError(path, hunkIndex);
    return { content, mode: stat.mode & 0o100 ? '100755' : '100644' };
  }

  private async currentLink(path: string): Promise<Buffer | null> {
    const stat = await lstatInWorkspace(this.workspace, path);
    if (!stat?.isSymbolicLink()) return null;
    return Buffer.from(await readlink(join(this.workspace, path)), 'utf8');
  }

  private async blob(id: string): Promise<Buffer> {
    return (await this.git.run(['cat-file', 'blob', id])).stdout;
  }

  /** Mode and blob id of each of `paths` in `tree`. */
  private async treeEntries(tree: string, paths: readonly string[]): Promise<Map<string, { mode: BlobMode; blob: string }>> {
    const entries = new Map<string, { mode: BlobMode; blob: string }>();
    if (paths.length === 0) return entries;
    // Literal pathspecs: a path with '*' or ':' names only itself.
    const listed = await this.git.run(['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', tree, '--', ...paths]);
    for (const record of nulFields(listed.stdout)) {
      const tab = record.indexOf('\t');
      const [mode, type, blob] = record.slice(0, tab).split(' ');
      if (type === 'blob') entries.set(record.slice(tab + 1), { mode: mode as BlobMode, blob });
    }
    return entries;
  }
}
