import type { Database } from '../store/database';
import type { StoredEntry } from './verifyChain';

interface Row {
  seq: number;
  ts: number;
  type: string;
  actor: string;
  session_id: string | null;
  payload_commit: Buffer;
  prev_hash: Buffer;
  entry_hash: Buffer;
  payload: string;
  salt: Buffer;
}

/** Every entry of the database's ledger in storage order (by seq), streamed so a million entries fit in memory. */
export function* storedEntries(db: Database): Generator<StoredEntry> {
  const rows = db.prepare<[], Row>('SELECT * FROM audit_ledger ORDER BY seq').iterate();
  for (const row of rows) {
    yield {
      seq: row.seq,
      ts: row.ts,
      type: row.type,
      actor: row.actor,
      sessionId: row.session_id,
      payloadCommit: row.payload_commit,
      prevHash: row.prev_hash,
      entryHash: row.entry_hash,
      payload: row.payload,
      salt: row.salt,
    };
  }
}
