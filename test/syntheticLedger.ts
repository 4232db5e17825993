import { randomBytes } from 'node:crypto';
import { canonicalJson } from '../src-main/node/ledger/canonicalJson';
import { entryHash, GENESIS_HASH, payloadCommit, SALT_BYTES } from '../src-main/node/ledger/entryHash';
import type { Database } from '../src-main/node/store/database';

export interface SyntheticEntry {
  ts: number;
  type: string;
  actor: string;
  sessionId: string | null;
  payload: Record<string, unknown>;
}

/**
 * Appends entries straight into `audit_ledger` in one transaction, with a real hash chain (so Verify says intact),
 * continuing from whatever the table already holds. Much faster than a Ledger for seeding a million entries, and
 * independent of how the Ledger batches its writes. `make(i)` describes the i-th new entry (0-based).
 */
export function appendSyntheticEntries(db: Database, count: number, make: (i: number) => SyntheticEntry): void {
  // Many rows per statement: per-statement overhead, not SQLite, dominates a row-at-a-time seed
  // (docs/performance.md#ledger).
  const ROWS_PER_INSERT = 100;
  const columns = 'seq, ts, type, actor, session_id, payload_commit, prev_hash, entry_hash, payload, salt';
  const placeholders = (rows: number): string => Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
  const insertFull = db.prepare(`INSERT INTO audit_ledger (${columns}) VALUES ${placeholders(ROWS_PER_INSERT)}`);
  const head = db.prepare('SELECT seq, entry_hash FROM audit_ledger ORDER BY seq DESC LIMIT 1').get() as { seq: number; entry_hash: Buffer } | undefined;
  let seq = head?.seq ?? 0;
  let prevHash = head?.entry_hash ?? GENESIS_HASH;
  // One draw of randomness for every salt: a call per entry cost more than the hashing.
  const salts = randomBytes(SALT_BYTES * count);
  db.transaction(() => {
    for (let first = 0; first < count; first += ROWS_PER_INSERT) {
      const rows = Math.min(ROWS_PER_INSERT, count - first);
      const args: (string | number | Buffer | null)[] = [];
      for (let i = first; i < first + rows; i++) {
        const entry = make(i);
        seq++;
        const payload = canonicalJson(entry.payload);
        const salt = salts.subarray(i * SALT_BYTES, (i + 1) * SALT_BYTES);
        const commit = payloadCommit(salt, payload);
        const hash = entryHash({ seq, ts: entry.ts, type: entry.type, actor: entry.actor, sessionId: entry.sessionId, payloadCommit: commit, prevHash });
        args.push(seq, entry.ts, entry.type, entry.actor, entry.sessionId, commit, prevHash, hash, payload, salt);
        prevHash = hash;
      }
      (rows === ROWS_PER_INSERT ? insertFull : db.prepare(`INSERT INTO audit_ledger (${columns}) VALUES ${placeholders(rows)}`)).run(...args);
    }
  }).immediate();
}

const TYPES = ['terminal.open', 'terminal.close', 'exec.spawn', 'file.write', 'net.request', 'grant.issue', 'grant.revoke', 'file.write', 'exec.spawn', 'session.create'];

/**
 * A plausible busy ledger whose shape is arithmetic, so tests can know the answers without reading it back:
 * entry i (0-based, seq i + 1) has type TYPES[i % 10], actor 'user' when i % 3 === 0 else `agent-${i % 17}`, no
 * session when i % 50 === 0 else `ses_${i % 40}`, ts = base + i seconds, and a payload naming project-(i % 997).
 */
export function busyLedgerEntry(baseTs: number): (i: number) => SyntheticEntry {
  return (i) => ({
    ts: baseTs + i * 1000,
    type: TYPES[i % TYPES.length],
    actor: i % 3 === 0 ? 'user' : `agent-${i % 17}`,
    sessionId: i % 50 === 0 ? null : `ses_${i % 40}`,
    payload: { cmd: `ls -la /work/project-${i % 997}`, cwd: `/home/user/workspace/${i % 31}`, exit: 0, n: i },
  });
}
