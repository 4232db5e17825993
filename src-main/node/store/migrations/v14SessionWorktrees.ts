import type { Migration } from '../migration';

export const v14SessionWorktrees: Migration = {
  version: 14,
  name: 'sessions: the worktree a session works in',
  // JSON {repo, branch, base, path}: the checkout the session was created on, its branch "omni/…", the branch it
  // started from, and the worktree folder under the app home. NULL: the session works in the folder itself.
  sql: `ALTER TABLE sessions ADD COLUMN worktree TEXT;`,
};
