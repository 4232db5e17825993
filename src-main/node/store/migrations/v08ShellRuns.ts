import type { Migration } from '../migration';

export const v08ShellRuns: Migration = {
  version: 8,
  name: 'shell runs: exec runs, their items, the watcher backlog',
  // See src-main/node/exec. A run is a row of exec_runs (ord is the queue order, kept when a run is recovered);
  // its output and events are exec_run_items, numbered gaplessly from 1 per run and stored by (run_id, seq) so a
  // poll is one range read. The backlog holds watcher matches until the session's agent takes them.
  sql: `
    CREATE TABLE exec_runs (
      ord INTEGER PRIMARY KEY,
      run_id TEXT NOT NULL UNIQUE,
      session_id TEXT NOT NULL,
      actor TEXT NOT NULL,
      -- JSON array of strings.
      argv TEXT NOT NULL,
      cwd TEXT NOT NULL,
      pty INTEGER NOT NULL CHECK (pty IN (0, 1)),
      background INTEGER NOT NULL CHECK (background IN (0, 1)),
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'exited', 'killed', 'timed_out', 'failed')),
      exit_code INTEGER,
      signal TEXT,
      reason TEXT,
      timeout_secs REAL,
      max_output_bytes INTEGER,
      -- JSON array of watchers, as requested.
      watch TEXT NOT NULL,
      output_bytes INTEGER NOT NULL DEFAULT 0,
      truncated INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
      -- The attempt running or last run (0 before the first); recovery re-queues a run until max_attempts.
      attempt INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL,
      -- The process group of the current attempt, so a later host can make sure it is gone before a re-run.
      pgid INTEGER,
      created_at INTEGER NOT NULL,
      started_at INTEGER,
      ended_at INTEGER,
      last_seq INTEGER NOT NULL DEFAULT 0,
      -- JSON array: what the sandbox enforced for the last attempt.
      sandbox TEXT NOT NULL DEFAULT '[]'
    );
    -- The worker's claim: the oldest queued run of a session.
    CREATE INDEX exec_runs_queued ON exec_runs (session_id, ord) WHERE status = 'queued';
    -- The Runs panel: a session's runs in order.
    CREATE INDEX exec_runs_by_session ON exec_runs (session_id, ord);
    -- Recovery at start: runs a previous host left running.
    CREATE INDEX exec_runs_running ON exec_runs (status) WHERE status = 'running';

    CREATE TABLE exec_run_items (
      run_id TEXT NOT NULL,
      seq INTEGER NOT NULL CHECK (seq >= 1),
      ts INTEGER NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('stdout', 'stderr', 'output', 'input', 'event')),
      data TEXT NOT NULL,
      -- JSON object for event items, else NULL.
      detail TEXT,
      PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;

    CREATE TABLE exec_backlog (
      id INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL,
      run_id TEXT NOT NULL,
      event TEXT NOT NULL,
      text TEXT NOT NULL,
      ts INTEGER NOT NULL,
      delivered INTEGER NOT NULL DEFAULT 0 CHECK (delivered IN (0, 1)),
      -- Set on the one row per session that counts messages dropped while the backlog was full.
      dropped INTEGER
    );
    CREATE INDEX exec_backlog_by_session ON exec_backlog (session_id, delivered, id);
  `,
};
