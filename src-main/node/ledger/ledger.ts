import type { LedgerEntry } from '../../../src-preload/contract';
import { Emitter } from '../../../src-preload/rpc';
import type { Database } from '../store/database';
import { canonicalJson } from './canonicalJson';
import { entryHash, GENESIS_HASH, newSalt, payloadCommit } from './entryHash';

export interface LedgerAppend {
  type: string;
  actor: string;
  sessionId?: string | null;
  payload?: Record<string, unknown>;
}

interface Row {
  seq: number;
  ts: number;
  type: string;
  actor: string;
  session_id: string | null;
  payload: string;
}

const toEntry = (row: Row): LedgerEntry => ({
  seq: row.seq,
  ts: row.ts,
  type: row.type,
  actor: row.actor,
  sessionId: row.session_id,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
});

const COLUMNS = 'seq, ts, type, actor, session_id, payload';

export interface LedgerOptions {
  now?: () => number;
  /**
   * Applied to every payload before it is committed to: secrets must never reach the ledger, so the vault's
   * scrubber (known secrets plus token patterns) runs here, at ingest. The identity when not given (tests).
   */
  scrub?: (payload: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * The audit ledger: one append-only, hash-chained row per state-changing action (see entryHash.ts for the chain;
 * the table's triggers refuse UPDATE, DELETE and any seq that is not the next one). Appends are synchronous, so an
 * entry commits in the same transaction as the change it records. Listeners hear every append (the live view).
 */
export class Ledger {
  private readonly appended = new Emitter<LedgerEntry>();
  readonly onDidAppend = this.appended.event;
  private readonly insert;
  private readonly selectHead;
  private readonly selectAfter;
  private head: { seq: number; hash: Buffer };

  private readonly now: () => number;
  private readonly scrub: (payload: Record<string, unknown>) => Record<string, unknown>;

  constructor(
    private readonly db: Database,
    options: LedgerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.scrub = options.scrub ?? ((payload) => payload);
    this.insert = db.prepare(
      'INSERT INTO audit_ledger (seq, ts, type, actor, session_id, payload_commit, prev_hash, entry_hash, payload, salt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.selectHead = db.prepare<[], { seq: number; entry_hash: Buffer }>('SELECT seq, entry_hash FROM audit_ledger ORDER BY seq DESC LIMIT 1');
    this.selectAfter = db.prepare<[number, number], Row>(`SELECT ${COLUMNS} FROM audit_ledger WHERE seq > ? ORDER BY seq LIMIT ?`);
    this.head = this.readHead();
  }

  private readHead(): { seq: number; hash: Buffer } {
    const row = this.selectHead.get();
    return row ? { seq: row.seq, hash: row.entry_hash } : { seq: 0, hash: GENESIS_HASH };
  }

  /** The number of entries and the hash of the last one. */
  get headInfo(): { size: number; hash: string } {
    return { size: this.head.seq, hash: this.head.hash.toString('hex') };
  }

  append(event: LedgerAppend): LedgerEntry {
    const payload = canonicalJson(this.scrub(event.payload ?? {}));
    const ts = this.now();
    const sessionId = event.sessionId ?? null;
    let entry: LedgerEntry | undefined;
    for (let attempt = 0; !entry; attempt++) {
      const seq = this.head.seq + 1;
      const salt = newSalt();
      const commit = payloadCommit(salt, payload);
      const hash = entryHash({ seq, ts, type: event.type, actor: event.actor, sessionId, payloadCommit: commit, prevHash: this.head.hash });
      try {
        this.insert.run(seq, ts, event.type, event.actor, sessionId, commit, this.head.hash, hash, payload, salt);
      } catch (error) {
        // A rolled-back transaction can leave the cached head ahead of the table: re-read it and chain again once.
        if (attempt > 0 || !/gapless/.test(String(error))) throw error;
        this.head = this.readHead();
        continue;
      }
      this.head = { seq, hash };
      entry = { seq, ts, type: event.type, actor: event.actor, sessionId, payload: JSON.parse(payload) as Record<string, unknown> };
    }
    this.appended.fire(entry);
    return entry;
  }

  /** Newest first; `beforeSeq` pages backwards. */
  list(options: { sessionId?: string; beforeSeq?: number; limit: number }): LedgerEntry[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (options.sessionId) {
      where.push('session_id = ?');
      args.push(options.sessionId);
    }
    if (options.beforeSeq) {
      where.push('seq < ?');
      args.push(options.beforeSeq);
    }
    const sql = `SELECT ${COLUMNS} FROM audit_ledger ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`;
    return this.db.prepare<(string | number)[], Row>(sql).all(...args, options.limit).map(toEntry);
  }

  after(seq: number, limit: number): LedgerEntry[] {
    return this.selectAfter.all(seq, limit).map(toEntry);
  }

  dispose(): void {
    this.appended.dispose();
  }
}
