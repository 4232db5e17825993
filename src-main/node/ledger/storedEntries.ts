import type { Database } from '../store/database';
import type { Checkpoint } from './checkpoint';
import type { StoredEntry } from './verifyChain';

type Row = [seq: number, ts: number, type: string, actor: string, sessionId: string | null, payload: string, hashes: Buffer | null];

/**
 * The four fixed-size byte columns come back as one blob (payload_commit ‖ prev_hash ‖ entry_hash ‖ salt) sliced
 * into views: better-sqlite3 copies every blob into a Buffer of its own, and for a million entries four copies per
 * row cost more than the hashing does (docs/performance.md#ledger).
 */
const SELECT_ENTRIES =
  'SELECT seq, ts, type, actor, session_id, payload, CAST(payload_commit || prev_hash || entry_hash || salt AS BLOB) FROM audit_ledger WHERE seq BETWEEN ? AND ? ORDER BY seq';

/**
 * The entries of the database's ledger in storage order (by seq), all or those with seq in [from, to], streamed so a
 * million entries fit in memory.
 */
export function* storedEntries(db: Database, from = 1, to = Number.MAX_SAFE_INTEGER): Generator<StoredEntry> {
  for (const row of db.prepare<[number, number], Row>(SELECT_ENTRIES).raw().iterate(from, to) as IterableIterator<Row>) {
    // NULL (or a wrong size) only in a hand-edited file: empty views make the chain check fail at this entry.
    const hashes = row[6] ?? Buffer.alloc(0);
    yield {
      seq: row[0],
      ts: row[1],
      type: row[2],
      actor: row[3],
      sessionId: row[4],
      // A column of the wrong size (only a hand-edited file has one) shifts the rest: the chain check then fails there.
      payloadCommit: hashes.subarray(0, 32),
      prevHash: hashes.subarray(32, 64),
      entryHash: hashes.subarray(64, 96),
      payload: row[5],
      salt: hashes.subarray(96),
    };
  }
}

interface CheckpointRow {
  size: number;
  ts: number;
  head_hash: Buffer;
  prev_signature: Buffer | null;
  signature: Buffer;
  public_key: Buffer;
}

/** Every signed checkpoint of the database's ledger, oldest first. */
export function storedCheckpoints(db: Database): Checkpoint[] {
  return db
    .prepare<[], CheckpointRow>('SELECT * FROM ledger_checkpoints ORDER BY size')
    .all()
    .map((row) => ({ size: row.size, ts: row.ts, headHash: row.head_hash, prevSignature: row.prev_signature, signature: row.signature, publicKey: row.public_key }));
}

/** The ledger's identity (hex of entry 1's hash), or null while it is empty. */
export function storedLedgerId(db: Database): string | null {
  const row = db.prepare<[], { entry_hash: Buffer }>('SELECT entry_hash FROM audit_ledger WHERE seq = 1').get();
  return row ? row.entry_hash.toString('hex') : null;
}
