import type { Migration } from '../migration';

export const v04EventLog: Migration = {
  version: 4,
  name: 'event log (what streams, per session, replayable)',
  sql: `
    -- See src-main/node/eventlog/eventLog.ts. Not the audit ledger: retention removes from it, so no triggers.
    CREATE TABLE event_log (
      session_id TEXT NOT NULL,
      seq INTEGER NOT NULL CHECK (seq >= 1),
      ts INTEGER NOT NULL,
      kind TEXT NOT NULL,
      subject TEXT,
      -- A state change's JSON, or NULL for output.
      payload TEXT,
      -- Output text as UTF-8, and its length in UTF-16 code units (what the terminal scrollback counts).
      data BLOB,
      data_chars INTEGER,
      PRIMARY KEY (session_id, seq),
      CHECK ((payload IS NULL) <> (data IS NULL))
    ) WITHOUT ROWID;
    -- State events by kind (terminals opened and never closed, say); output rows stay out of this index.
    CREATE INDEX event_log_state_by_kind ON event_log (kind, subject) WHERE data IS NULL;

    -- Sessions from before the event log start theirs with their current record.
    INSERT INTO event_log (session_id, seq, ts, kind, subject, payload)
      SELECT id, 1, updated_at, 'session.created', NULL,
             json_object('id', id, 'name', name, 'workspace', workspace, 'status', status,
                         'createdAt', created_at, 'updatedAt', updated_at)
      FROM sessions;
  `,
};
