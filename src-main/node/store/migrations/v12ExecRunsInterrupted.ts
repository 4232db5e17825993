import type { Migration } from '../migration';

export const v12ExecRunsInterrupted: Migration = {
  version: 12,
  name: "exec runs: the 'interrupted' status",
  // An agent's run the host stopped under is ended `interrupted` at the next start, not run again (its agent run
  // and grants ended with that host; src-main/node/exec/runRecovery.ts). SQLite cannot change a CHECK in place:
  // the table is rebuilt as it was, rows (and their ord, the queue order) copied, its indexes made again.
  sql: `
    CREATE TABLE exec_runs_v12 (
      ord INTEGER PRIMARY KEY,
      run_id TEXT NOT NULL UNIQUE,
      session_id TEXT NOT NULL,
      actor TEXT NOT NULL,
      -- JSON array of strings.
      argv TEXT NOT NULL,
      cwd TEXT NOT NULL,
      pty INTEGER NOT NULL CHECK (pty IN (0, 1)),
      background INTEGER NOT NULL CHECK (background IN (0, 1)),
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'exited', 'killed', 'timed_out', 'failed', 'interrupted')),
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
    INSERT INTO exec_runs_v12 SELECT * FROM exec_runs;
    DROP TABLE exec_runs;
    ALTER TABLE exec_runs_v12 RENAME TO exec_runs;
    CREATE INDEX exec_runs_queued ON exec_runs (session_id, ord) WHERE status = 'queued';
    CREATE INDEX exec_runs_by_session ON exec_runs (session_id, ord);
    CREATE INDEX exec_runs_running ON exec_runs (status) WHERE status = 'running';
  `,
};
