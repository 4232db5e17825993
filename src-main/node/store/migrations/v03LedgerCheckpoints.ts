import type { Migration } from '../migration';

export const v03LedgerCheckpoints: Migration = {
  version: 3,
  name: 'signed ledger checkpoints',
  sql: `
    -- One row per signed checkpoint (see ledger/checkpoint.ts): the ledger's key vouches for (size, head_hash),
    -- chained through prev_signature. Append-only like the ledger, and never ahead of it.
    CREATE TABLE ledger_checkpoints (
      size INTEGER PRIMARY KEY CHECK (size > 0),
      ts INTEGER NOT NULL,
      head_hash BLOB NOT NULL CHECK (length(head_hash) = 32),
      prev_signature BLOB CHECK (prev_signature IS NULL OR length(prev_signature) = 64),
      signature BLOB NOT NULL CHECK (length(signature) = 64),
      public_key BLOB NOT NULL
    );
    CREATE TRIGGER ledger_checkpoints_in_order BEFORE INSERT ON ledger_checkpoints
      WHEN NEW.size <= coalesce((SELECT max(size) FROM ledger_checkpoints), 0)
        OR NEW.size > coalesce((SELECT max(seq) FROM audit_ledger), 0)
      BEGIN SELECT RAISE(ABORT, 'ledger_checkpoints: a checkpoint must cover more entries than the last one, and no more than exist'); END;
    CREATE TRIGGER ledger_checkpoints_no_update BEFORE UPDATE ON ledger_checkpoints
      BEGIN SELECT RAISE(ABORT, 'ledger_checkpoints is append-only: UPDATE refused'); END;
    CREATE TRIGGER ledger_checkpoints_no_delete BEFORE DELETE ON ledger_checkpoints
      BEGIN SELECT RAISE(ABORT, 'ledger_checkpoints is append-only: DELETE refused'); END;
  `,
};
