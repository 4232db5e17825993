import { z } from 'zod';
import { call, liveList } from './define';
import { SessionId } from './sessions';

/**
 * What agents changed in a session's workspace, whatever changed it (docs/changes.md): before every agent turn the
 * host records a snapshot of the workspace in a shadow git store under the app home; a turn's changes are the
 * difference between the snapshot before it and the one after it. The user reviews them (accept or reject per file
 * and per hunk: rejecting restores that part on disk) and can restore the workspace to any snapshot.
 */
export const TurnId = z.string().regex(/^turn_[A-Za-z0-9_-]{8,64}$/, 'expected a turn id like "turn_…" (changes.turns lists them)');
export type TurnId = z.infer<typeof TurnId>;
export const SnapshotId = z.string().regex(/^snap_[A-Za-z0-9_-]{8,64}$/, 'expected a snapshot id like "snap_…" (changes.timeline lists them)');
export type SnapshotId = z.infer<typeof SnapshotId>;

/**
 * What made a turn, and the id of what the UI shows it in, so a card can find its turn:
 * - conversation: an ACP prompt; `id` is the conversation id, `seq` the prompt entry's seq in acp.updates;
 * - agent_run: a WASM, native or model-backed agent run; `id` is the run id;
 * - goal_task: one task attempt of a goal run; `id` is the task id;
 * - shell_run: a shell run an agent asked for; `id` is the exec run id;
 * - harness_run: a launch of Claude Code or Codex from the CLI sessions panel (interactive or headless), from its
 *   start to its end; `id` is the harness session id, `seq` the launch's launchedAt (a resumed session is launched again);
 * - restore: the user restored a snapshot (so the restore can be undone); `id` is the snapshot restored.
 */
export const TurnSource = z.object({
  kind: z.enum(['conversation', 'agent_run', 'goal_task', 'shell_run', 'harness_run', 'restore']),
  id: z.string().max(200),
  seq: z.number().int().min(0).optional(),
});
export type TurnSource = z.infer<typeof TurnSource>;

/** A file the snapshot left out, and why: the user sees these, so nothing is silently missing from a review. */
export const SkippedFile = z.object({
  path: z.string(),
  reason: z.enum(['too_large', 'unreadable', 'special']),
  /** Size in bytes, for too_large. */
  size: z.number().int().min(0).optional(),
});
export type SkippedFile = z.infer<typeof SkippedFile>;

export const Verdict = z.enum(['pending', 'accepted', 'rejected', 'mixed']);
export type Verdict = z.infer<typeof Verdict>;

export const ChangeTurn = z.object({
  id: TurnId,
  sessionId: SessionId,
  source: TurnSource,
  /** Who acted: the agent's name ("Claude Code", "hello-wasm"), or "you" for a restore. */
  agent: z.string(),
  /** One line for the card and the timeline: the prompt's start, the task's title, the command. */
  title: z.string(),
  startedAt: z.number().int(),
  /** Null while the turn runs (its changes are then those so far, read on demand). */
  endedAt: z.number().int().nullable(),
  before: SnapshotId,
  after: SnapshotId.nullable(),
  /** Files added, modified, deleted or renamed by the turn (0 until it ends). */
  filesChanged: z.number().int().min(0),
  /** The user's verdicts over the turn's files: pending until every file has one. */
  verdict: Verdict,
});
export type ChangeTurn = z.infer<typeof ChangeTurn>;

export const FileStatus = z.enum(['added', 'modified', 'deleted', 'renamed']);
export type FileStatus = z.infer<typeof FileStatus>;

export const ChangedFile = z.object({
  path: z.string(),
  /** The path before, for a renamed file. */
  oldPath: z.string().optional(),
  status: FileStatus,
  binary: z.boolean(),
  additions: z.number().int().min(0),
  deletions: z.number().int().min(0),
  verdict: Verdict,
});
export type ChangedFile = z.infer<typeof ChangedFile>;

/** One hunk of a file's diff; `lines` keep git's prefixes: ' ' context, '+' added, '-' removed. */
export const Hunk = z.object({
  index: z.number().int().min(0),
  oldStart: z.number().int().min(0),
  oldLines: z.number().int().min(0),
  newStart: z.number().int().min(0),
  newLines: z.number().int().min(0),
  /** git's section heading after the @@ (a function name), may be empty. */
  heading: z.string(),
  lines: z.array(z.string()),
  verdict: z.enum(['pending', 'accepted', 'rejected']),
});
export type Hunk = z.infer<typeof Hunk>;

export const FileDiff = z.object({
  file: ChangedFile,
  /** Empty for a binary file. */
  hunks: z.array(Hunk),
});
export type FileDiff = z.infer<typeof FileDiff>;

export const Snapshot = z.object({
  id: SnapshotId,
  sessionId: SessionId,
  /** The turn this snapshot was taken before (or after, for the last one of a turn); null for the session's first. */
  turnId: TurnId.nullable(),
  /** "before", "after": where in the turn it was taken. */
  moment: z.enum(['start', 'before', 'after']),
  agent: z.string(),
  title: z.string(),
  takenAt: z.number().int(),
  /** Files that differ from the previous snapshot of the session. */
  filesChanged: z.number().int().min(0),
  skipped: z.array(SkippedFile),
});
export type Snapshot = z.infer<typeof Snapshot>;

/** What "Restore to here" would do to each file, shown before anything is touched. */
export const RestorePlan = z.object({
  snapshot: SnapshotId,
  files: z.array(z.object({ path: z.string(), action: z.enum(['restore', 'delete', 'recreate']) })),
});
export type RestorePlan = z.infer<typeof RestorePlan>;

const HunkVerdict = z.enum(['accepted', 'rejected']);

export const changesContract = {
  /** A session's turns, oldest first, then each new turn and each change to one (it ends, a verdict is given). */
  'changes.turns': liveList(z.object({ sessionId: SessionId }).strict(), ChangeTurn, (turn) => turn.id),
  /** The files a turn changed, and what the snapshots left out. */
  'changes.files': call(z.object({ turnId: TurnId }).strict(), z.object({ files: z.array(ChangedFile), skipped: z.array(SkippedFile) })),
  /** One file's diff in a turn, with each hunk's verdict. */
  'changes.diff': call(z.object({ turnId: TurnId, path: z.string().min(1).max(4096) }).strict(), FileDiff),
  /**
   * Accept or reject a whole file (no `hunk`) or one hunk. Rejecting restores that part on disk as it was before the
   * turn (a rejected added file is deleted, a rejected deletion brings the file back); the ledger records each verdict.
   */
  'changes.verdict': call(
    z.object({ turnId: TurnId, path: z.string().min(1).max(4096), hunk: z.number().int().min(0).optional(), verdict: HunkVerdict }).strict(),
    FileDiff,
  ),
  /** The session's snapshots, oldest first: the rewind timeline. */
  'changes.timeline': call(z.object({ sessionId: SessionId }).strict(), z.array(Snapshot)),
  /** Exactly which files "Restore to here" would change, touching nothing. */
  'changes.restorePlan': call(z.object({ snapshotId: SnapshotId }).strict(), RestorePlan),
  /** Restores the workspace to a snapshot, deleted files included; the restore is itself a turn, so it can be undone. */
  'changes.restore': call(z.object({ snapshotId: SnapshotId }).strict(), ChangeTurn),
};
