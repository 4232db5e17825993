import { chainLegacyLedger } from '../../ledger/legacyLedgerMigration';
import type { Migration } from '../migration';

export const v02HashChainedLedger: Migration = {
  version: 2,
  name: 'tamper-evident audit ledger (hash chain, payload commitments)',
  sql: `
    CREATE TABLE audit_ledger (
      seq INTEGER PRIMARY KEY,
      ts INTEGER NOT NULL,
      type TEXT NOT NULL,
      actor TEXT NOT NULL,
      session_id TEXT,
      payload_commit BLOB NOT NULL CHECK (length(payload_commit) = 32),
      prev_hash BLOB NOT NULL CHECK (length(prev_hash) = 32),
      entry_hash BLOB NOT NULL CHECK (length(entry_hash) = 32),
      -- Kept beside the entry so it can be checked against its commitment (and dropped from a redacted export).
      payload TEXT NOT NULL,
      salt BLOB NOT NULL CHECK (length(salt) = 16)
    );
    CREATE INDEX audit_ledger_by_session ON audit_ledger (session_id, seq);
    CREATE INDEX audit_ledger_by_type ON audit_ledger (type, seq);

    CREATE TRIGGER audit_ledger_gapless BEFORE INSERT ON audit_ledger
      WHEN NEW.seq IS NOT coalesce((SELECT max(seq) FROM audit_ledger), 0) + 1
      BEGIN SELECT RAISE(ABORT, 'audit_ledger is gapless: seq must be the last seq + 1'); END;
    CREATE TRIGGER audit_ledger_no_update BEFORE UPDATE ON audit_ledger
      BEGIN SELECT RAISE(ABORT, 'audit_ledger is append-only: UPDATE refused'); END;
    CREATE TRIGGER audit_ledger_no_delete BEFORE DELETE ON audit_ledger
      BEGIN SELECT RAISE(ABORT, 'audit_ledger is append-only: DELETE refused'); END;
  `,
  // Entries of the first (unchained) ledger are chained in their order, then its table goes.
  migrate: chainLegacyLedger,
};
