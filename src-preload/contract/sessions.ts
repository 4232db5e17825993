import { z } from 'zod';
import { call, liveList } from './define';

export const SessionId = z.string().regex(/^ses_[A-Za-z0-9_-]{8,64}$/, 'expected a session id like "ses_…"');

/** A session that works on its own branch in its own git worktree (docs/worktrees.md). */
export const SessionWorktree = z.object({
  /** The repository's checkout the session was created on (where a merge into the base runs). */
  repo: z.string(),
  /** The session's branch, "omni/<session name>". */
  branch: z.string(),
  /** The branch it started from and merges back into. */
  base: z.string(),
});
export type SessionWorktree = z.infer<typeof SessionWorktree>;

export const Session = z.object({
  id: SessionId,
  name: z.string(),
  /** Absolute real path of the workspace folder. */
  workspace: z.string(),
  status: z.enum(['open', 'closed']),
  /** null: the session works in the folder itself. */
  worktree: SessionWorktree.nullable().optional(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Session = z.infer<typeof Session>;

const SessionName = z.string().trim().min(1, 'a name cannot be empty').max(200, 'at most 200 characters');

/** A folder sessions have worked in, for the new-session form's "recent workspaces". */
export const RecentWorkspace = z.object({
  /** The folder the user picked (for a worktree session, its repository's checkout). */
  workspace: z.string(),
  /** When a session in it last changed (created, renamed, closed, reopened). */
  lastUsedAt: z.number().int(),
  /** The name of that most recent session. */
  sessionName: z.string(),
  /** False when the folder is gone (deleted or moved): shown, marked, not offered as is. */
  exists: z.boolean(),
});
export type RecentWorkspace = z.infer<typeof RecentWorkspace>;

/** What runs in a session now, and would stop if it were closed. */
export const SessionRunning = z.object({
  terminals: z.number().int().nonnegative(),
  /** Process runs, queued or running. */
  runs: z.number().int().nonnegative(),
  /** Agent runs, agent conversations and headless CLI sessions. */
  agents: z.number().int().nonnegative(),
});
export type SessionRunning = z.infer<typeof SessionRunning>;

export const SessionChange = z.object({ kind: z.enum(['created', 'updated']), session: Session });
export type SessionChange = z.infer<typeof SessionChange>;

export const sessionContract = {
  'session.create': call(
    z.object({
      workspace: z.string().min(1, 'give the workspace folder as an absolute path').max(4096),
      name: SessionName.optional(),
      /** Work on a new branch "omni/<name>" from `base` in a worktree of its own under the app home. */
      worktree: z.object({ base: z.string().min(1, 'pick the base branch').max(250) }).optional(),
    }),
    Session,
  ),
  /** Whether a folder is in a git repository, and its branches, so a new session can offer a worktree. */
  'session.gitInfo': call(
    z.object({ workspace: z.string().min(1).max(4096) }),
    z.object({ inRepo: z.boolean(), repo: z.string().nullable(), branches: z.array(z.string()), current: z.string().nullable() }),
  ),
  'session.list': call(z.object({ includeClosed: z.boolean().optional() }), z.array(Session)),
  'session.rename': call(z.object({ id: SessionId, name: SessionName }), Session),
  /** What would stop if the session were closed: the UI asks before closing a session with anything live. */
  'session.running': call(z.object({ id: SessionId }), SessionRunning),
  'session.close': call(z.object({ id: SessionId }), Session),
  /** The folders of past sessions (closed ones too), most recent first, each once. */
  'session.recentWorkspaces': call(z.object({ limit: z.number().int().min(1).max(50).optional() }), z.array(RecentWorkspace)),
  'session.reopen': call(z.object({ id: SessionId }), Session),
  /** The sessions, then every create/rename/close/reopen, so several windows stay in step. */
  'session.watch': liveList(z.object({ includeClosed: z.boolean().optional() }), Session, (session) => session.id),
};
