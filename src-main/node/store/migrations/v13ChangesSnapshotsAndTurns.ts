import type { Migration } from '../migration';

export const v13ChangesSnapshotsAndTurns: Migration = {
  version: 13,
  name: 'changes: workspace snapshots, agent turns and the verdicts of their review',
  // See src-main/node/changes and docs/changes.md. A snapshot is a tree in the workspace's shadow git store (under
  // the app home); `tree` is NULL when it could not be taken (git missing, the store broken), and `error` says why,
  // so the turn is still recorded and its review explains itself. Titles are scrubbed of secrets before they land.
  // A verdict row with hunk -1 is the file's verdict: the user's for a file without hunks (binary), else derived
  // from its hunks' rows each time one changes, so listing a turn's files never diffs them.
  sql: `
    CREATE TABLE change_snapshots (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id),
      -- The turn it was taken before or after; NULL for the session's first ('start').
      turn_id TEXT,
      moment TEXT NOT NULL CHECK (moment IN ('start', 'before', 'after')),
      tree TEXT,
      error TEXT,
      taken_at INTEGER NOT NULL,
      files_changed INTEGER NOT NULL DEFAULT 0,
      -- JSON array of SkippedFile.
      skipped TEXT NOT NULL DEFAULT '[]',
      CHECK ((tree IS NULL) = (error IS NOT NULL))
    );
    CREATE INDEX change_snapshots_by_session ON change_snapshots (session_id, taken_at);

    CREATE TABLE change_turns (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id),
      source_kind TEXT NOT NULL CHECK (source_kind IN ('conversation', 'agent_run', 'goal_task', 'shell_run', 'harness_run', 'restore')),
      source_id TEXT NOT NULL,
      source_seq INTEGER,
      agent TEXT NOT NULL,
      title TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      ended_at INTEGER,
      before_snapshot TEXT NOT NULL REFERENCES change_snapshots (id),
      after_snapshot TEXT REFERENCES change_snapshots (id),
      files_changed INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX change_turns_by_session ON change_turns (session_id, started_at);
    CREATE INDEX change_turns_by_source ON change_turns (source_kind, source_id);

    CREATE TABLE change_verdicts (
      turn_id TEXT NOT NULL REFERENCES change_turns (id),
      path TEXT NOT NULL,
      hunk INTEGER NOT NULL CHECK (hunk >= -1),
      verdict TEXT NOT NULL CHECK (verdict IN ('pending', 'accepted', 'rejected', 'mixed')),
      at INTEGER NOT NULL,
      PRIMARY KEY (turn_id, path, hunk)
    ) WITHOUT ROWID;
  `,
};
