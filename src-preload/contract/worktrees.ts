import { z } from 'zod';
import { call } from './define';
import { SessionId } from './sessions';

/**
 * A worktree session back to its base (docs/worktrees.md): commit the worktree's changes, merge its branch into the
 * base branch, or discard the worktree and its branch after the user saw exactly what would be lost.
 */

export const WorktreeStatus = z.object({
  sessionId: SessionId,
  repo: z.string(),
  branch: z.string(),
  base: z.string(),
  /** The worktree's folder (the session's workspace is this folder or a sub-folder of it). */
  path: z.string(),
  /** false once the worktree was discarded (or its folder removed outside the app). */
  exists: z.boolean(),
  /** Uncommitted files as `git status --porcelain` names them ("XY path"). */
  uncommitted: z.array(z.string()),
  /** Commits of the branch that the base branch does not have. */
  ahead: z.number().int(),
});
export type WorktreeStatus = z.infer<typeof WorktreeStatus>;

export const WorktreeCommit = z.object({ id: z.string(), subject: z.string() });
export type WorktreeCommit = z.infer<typeof WorktreeCommit>;

export const MergeMode = z.enum(['fast-forward', 'merge-commit']);
export type MergeMode = z.infer<typeof MergeMode>;

export const MergeResult = z.discriminatedUnion('kind', [
  /** The base branch now has the branch's commits; `commit` is the base branch's new head. */
  z.object({ kind: z.literal('merged'), mode: MergeMode, commit: z.string() }),
  /** The merge stopped on conflicts and was aborted: the base branch and both checkouts are as they were. */
  z.object({ kind: z.literal('conflicts'), paths: z.array(z.string()) }),
]);
export type MergeResult = z.infer<typeof MergeResult>;

export const DiscardPlan = z.object({
  /** Uncommitted files that would be lost ("XY path"). */
  uncommitted: z.array(z.string()),
  /** Commits of the branch not in the base branch, which would be lost with the branch (newest first). */
  commits: z.array(WorktreeCommit),
  /** Names this plan: discard refuses when the worktree changed since (the user confirmed something else). */
  token: z.string(),
});
export type DiscardPlan = z.infer<typeof DiscardPlan>;

const BySession = z.object({ sessionId: SessionId });

export const worktreeContract = {
  'worktree.status': call(BySession, WorktreeStatus),
  /** Commits every change of the worktree with the user's message (the user's git identity, else the app's). */
  'worktree.commit': call(
    z.object({ sessionId: SessionId, message: z.string().trim().min(1, 'write a commit message').max(10_000, 'a commit message is at most 10,000 characters') }),
    WorktreeCommit,
  ),
  /** Merges the branch into the base branch, in the repository's own checkout (which must have it checked out, clean). */
  'worktree.merge': call(z.object({ sessionId: SessionId, mode: MergeMode }), MergeResult),
  /** What discarding would lose: read it to the user before `worktree.discard`. */
  'worktree.discardPlan': call(BySession, DiscardPlan),
  /** Closes the session, removes its worktree and deletes its branch; `token` is the plan the user confirmed. */
  'worktree.discard': call(z.object({ sessionId: SessionId, token: z.string().min(1).max(200) }), z.object({ removed: z.string(), deletedBranch: z.string() })),
};
