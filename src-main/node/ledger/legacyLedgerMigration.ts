import type BetterSqlite3 from 'better-sqlite3';
import { canonicalJson } from './canonicalJson';
import { entryHash, GENESIS_HASH, newSalt, payloadCommit } from './entryHash';

interface LegacyRow {
  ts: number;
  type: string;
  actor: string;
  session_id: string | null;
  payload: string;
}

/**
 * Schema step 2: moves the entries of the foundation's unchained `ledger_events` into the hash-chained
 * `audit_ledger`, in their original order, then drops the old table (DROP runs no DELETE trigger).
 */
export function chainLegacyLedger(db: BetterSqlite3.Database): void {
  const insert = db.prepare(
    'INSERT INTO audit_ledger (seq, ts, type, actor, session_id, payload_commit, prev_hash, entry_hash, payload, salt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  let prevHash: Buffer = GENESIS_HASH;
  let seq = 0;
  // .all(), not .iterate(): better-sqlite3 cannot insert on a connection while it is iterating.
  for (const row of db.prepare<[], LegacyRow>('SELECT ts, type, actor, session_id, payload FROM ledger_events ORDER BY seq').all()) {
    seq++;
    const payload = canonicalJson(JSON.parse(row.payload));
    const salt = newSalt();
    const commit = payloadCommit(salt, payload);
    const hash = entryHash({ seq, ts: row.ts, type: row.type, actor: row.actor, sessionId: row.session_id, payloadCommit: commit, prevHash });
    insert.run(seq, row.ts, row.type, row.actor, row.session_id, commit, prevHash, hash, payload, salt);
    prevHash = hash;
  }
  db.exec('DROP TABLE ledger_events');
}
