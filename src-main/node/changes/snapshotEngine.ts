import type { ChangedFile, Hunk, RestorePlan, SkippedFile } from '../../../src-preload/contract/changes';

/**
 * What the changes service needs of a workspace's shadow store (shadowStore.ts implements it): snapshots as git
 * trees, diffs between two of them, and writing parts of an older tree back to the workspace. The service keeps
 * the rows (which turn, which session, which verdict); the engine keeps the files. Named here, structurally, so the
 * service and its tests depend on what it does rather than on how the store is kept.
 */
export interface SnapshotEngine {
  snapshot(): Promise<{ tree: string; skipped: SkippedFile[] }>;
  changedFiles(fromTree: string, toTree: string): Promise<Omit<ChangedFile, 'verdict'>[]>;
  fileDiff(fromTree: string, toTree: string, path: string): Promise<{ file: Omit<ChangedFile, 'verdict'>; hunks: Omit<Hunk, 'verdict'>[] }>;
  /** `targetSkipped`: what the target snapshot left out (too large then), which a restore must not delete. */
  restorePlan(currentTree: string, targetTree: string, options?: { targetSkipped?: readonly SkippedFile[] }): Promise<RestorePlan['files']>;
  restore(targetTree: string, plan: RestorePlan['files']): Promise<void>;
  rejectHunk(fromTree: string, toTree: string, path: string, hunkIndex: number): Promise<void>;
  rejectFile(fromTree: string, toTree: string, path: string): Promise<void>;
  /** Resolves once what a snapshot left running in the background is done (the host waits for it as it stops). */
  idle(): Promise<void>;
}

/** Opens (or creates) the shadow store of a workspace, given its real path. */
export type OpenSnapshotEngine = (workspace: string) => Promise<SnapshotEngine>;
