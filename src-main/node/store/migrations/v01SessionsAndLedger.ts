import type { Migration } from '../migration';

export const v01SessionsAndLedger: Migration = {
  version: 1,
  name: 'sessions and the first append-only ledger',
  sql: `
    CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      workspace TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX sessions_by_workspace ON sessions (workspace);

    CREATE TABLE ledger_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      ts INTEGER NOT NULL,
      type TEXT NOT NULL,
      actor TEXT NOT NULL,
      session_id TEXT,
      payload TEXT NOT NULL
    );
    CREATE INDEX ledger_events_by_session ON ledger_events (session_id, seq);

    -- The ledger is append-only: the database itself refuses to change or remove an entry.
    CREATE TRIGGER ledger_events_no_update BEFORE UPDATE ON ledger_events
      BEGIN SELECT RAISE(ABORT, 'ledger_events is append-only: UPDATE refused'); END;
    CREATE TRIGGER ledger_events_no_delete BEFORE DELETE ON ledger_events
      BEGIN SELECT RAISE(ABORT, 'ledger_events is append-only: DELETE refused'); END;
  `,
};
