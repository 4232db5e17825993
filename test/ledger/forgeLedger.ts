// What a forger with file access does to a ledger database: drop the guards, rewrite, re-chain with the published
// formula. Nothing here needs the signing key, which is the point.
import { entryHash, payloadCommit } from '../../src-main/node/ledger/entryHash';
import { openDatabase, type Database } from '../../src-main/node/store/database';

/** Opens `file` with the append-only triggers dropped, runs `forge`, closes. */
export function forge(file: string, forge: (db: Database) => void): void {
  const db = openDatabase(file);
  try {
    db.exec('DROP TRIGGER IF EXISTS audit_ledger_no_update; DROP TRIGGER IF EXISTS audit_ledger_no_delete; DROP TRIGGER IF EXISTS ledger_checkpoints_no_delete;');
    forge(db);
  } finally {
    db.close();
  }
}

/** Replaces entry `seq`'s payload and re-hashes the chain from there on, so the chain alone is consistent again. */
export function rewriteAndRechain(db: Database, seq: number, payload: Record<string, unknown>): void {
  const rows = db
    .prepare<[number], { seq: number; ts: number; type: string; actor: string; session_id: string | null; salt: Buffer; payload: string }>('SELECT * FROM audit_ledger WHERE seq >= ? ORDER BY seq')
    .all(seq);
  let prev = db.prepare<[number], { entry_hash: Buffer }>('SELECT entry_hash FROM audit_ledger WHERE seq = ?').get(seq - 1)?.entry_hash ?? Buffer.alloc(32);
  const update = db.prepare('UPDATE audit_ledger SET payload = ?, payload_commit = ?, prev_hash = ?, entry_hash = ? WHERE seq = ?');
  for (const row of rows) {
    const text = row.seq === seq ? JSON.stringify(payload) : row.payload;
    const commit = payloadCommit(row.salt, text);
    const hash = entryHash({ seq: row.seq, ts: row.ts, type: row.type, actor: row.actor, sessionId: row.session_id, payloadCommit: commit, prevHash: prev });
    update.run(text, commit, prev, hash, row.seq);
    prev = hash;
  }
}

export function headOf(db: Database): { size: number; hash: string } {
  const row = db.prepare<[], { seq: number; entry_hash: Buffer }>('SELECT seq, entry_hash FROM audit_ledger ORDER BY seq DESC LIMIT 1').get();
  return row ? { size: row.seq, hash: row.entry_hash.toString('hex') } : { size: 0, hash: '' };
}
