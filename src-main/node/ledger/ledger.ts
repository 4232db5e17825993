import type { LedgerEntry } from '../../../src-preload/contract';
import { Emitter } from '../../../src-preload/rpc';
import type { Database } from '../store/database';
import { canonicalJson } from './canonicalJson';
import { CheckpointWriter, type CheckpointRecordTarget } from './checkpointWriter';
import { GENESIS_HASH } from './entryHash';
import { RowChainer } from './rowChainer';
import type { LedgerSigningKey } from './ledgerSigningKey';

export interface LedgerAppend {
  type: string;
  actor: string;
  sessionId?: string | null;
  payload?: Record<string, unknown>;
}

export interface LedgerOptions {
  now?: () => number;
  /**
   * Applied to every payload before it is committed to: secrets must never reach the ledger, so the vault's
   * scrubber (known secrets plus token patterns) runs here, at ingest. The identity when not given (tests).
   */
  scrub?: (payload: Record<string, unknown>) => Record<string, unknown>;
  /** Most entries written in one transaction. */
  batchSize?: number;
  /** A checkpoint is signed whenever seq reaches a multiple of this (and on close). */
  checkpointEvery?: number;
  /** Where failures of background work (a deferred flush, a keychain write) are reported. */
  onError?: (error: unknown) => void;
}

interface Row {
  seq: number;
  ts: number;
  type: string;
  actor: string;
  session_id: string | null;
  payload: string;
}

/** An entry waiting for its batch to be written (and chained: see writePending). */
interface PendingEntry {
  entry: LedgerEntry;
  /** The scrubbed payload's canonical JSON. */
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
const DEFAULT_BATCH_SIZE = 1000;
export const DEFAULT_CHECKPOINT_EVERY = 1000;

/**
 * The audit ledger: one append-only, hash-chained row per state-changing action (entryHash.ts has the chain; the
 * table's triggers refuse UPDATE, DELETE and any seq that is not the next one), with checkpoints signed by a key
 * from the OS keychain (checkpoint.ts).
 *
 * The host's single writer. `append` chains the entry at once (seq order is the order of calls) and queues it;
 * queued entries are written together in one transaction at the end of the event-loop turn, or as soon as
 * `batchSize` are waiting, or when `flush()` is called. Listeners hear an entry only after it has committed.
 * `transact(work)` runs a change to other tables and the entries recording it in one transaction: both land or
 * neither does.
 *
 * Durability (what a crash can lose): the database runs in WAL mode with synchronous=NORMAL. A killed host process
 * (kill -9, a crash) loses only the entries still queued, i.e. appended during the last event-loop turn and not yet
 * flushed; every written batch is whole and the chain verifies. A power loss or OS crash can in addition lose the
 * last committed transactions that the OS had not yet written to disk; the database is never corrupted.
 */
export class Ledger {
  private readonly appended = new Emitter<LedgerEntry>();
  /** Fires once per entry, in seq order, after the entry has committed. */
  readonly onDidAppend = this.appended.event;
  private readonly insert;
  /**
   * `work` and then the queued entries, in one transaction. Made once: better-sqlite3 builds four wrapper functions
   * for every db.transaction() call, which a single durable append would otherwise pay each time.
   */
  private readonly workThenPending: (work: () => unknown) => unknown;
  private readonly selectAfter;
  private readonly now: () => number;
  private readonly scrub: (payload: Record<string, unknown>) => Record<string, unknown>;
  private readonly batchSize: number;
  private readonly checkpointEvery: number;
  private readonly onError: (error: unknown) => void;
  private pending: PendingEntry[] = [];
  /** The newest entry's seq, queued or written. */
  private headSeq: number;
  /** The newest written entry. */
  private committedHead: { seq: number; hash: Buffer };
  /** The newest entry of the transaction being written; the committed head once it commits. */
  private writtenHead: { seq: number; hash: Buffer } | undefined;
  private readonly chain = new RowChainer();
  private flushScheduled = false;
  private inTransact = false;
  private checkpoints: CheckpointWriter | undefined;
  private signingKey: LedgerSigningKey | undefined;
  private closed = false;

  constructor(
    private readonly db: Database,
    options: LedgerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.scrub = options.scrub ?? ((payload) => payload);
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.checkpointEvery = options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY;
    this.onError = options.onError ?? ((error) => console.error('[ledger]', error));
    this.insert = db.prepare(
      'INSERT INTO audit_ledger (seq, ts, type, actor, session_id, payload_commit, prev_hash, entry_hash, payload, salt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.workThenPending = db.transaction((work: () => unknown) => {
      const value = work();
      this.writePending();
      return value;
    });
    this.selectAfter = db.prepare<[number, number], Row>(`SELECT ${COLUMNS} FROM audit_ledger WHERE seq > ? ORDER BY seq LIMIT ?`);
    const row = db.prepare<[], { seq: number; entry_hash: Buffer }>('SELECT seq, entry_hash FROM audit_ledger ORDER BY seq DESC LIMIT 1').get();
    this.committedHead = row ? { seq: row.seq, hash: row.entry_hash } : { seq: 0, hash: GENESIS_HASH };
    this.headSeq = this.committedHead.seq;
  }

  /**
   * The number of entries and the hash of the last one, after writing what is queued (entries are chained as they are
   * written). Inside transact(), the entries it has appended are not written yet and not counted.
   */
  get headInfo(): { size: number; hash: string } {
    this.flush();
    return { size: this.committedHead.seq, hash: this.committedHead.hash.toString('hex') };
  }

  /** The ledger's identity, the hash of its first entry (hex), or null while it is empty. */
  get ledgerId(): string | null {
    this.flush();
    const row = this.db.prepare<[], { entry_hash: Buffer }>('SELECT entry_hash FROM audit_ledger WHERE seq = 1').get();
    return row ? row.entry_hash.toString('hex') : null;
  }

  /**
   * Starts signing checkpoints with `key`, recording the newest in `record` (this file's keychain record). Entries
   * the previous run left unsigned (a crash before its closing checkpoint) are covered at once, so call it only once
   * the ledger verified against that record (signingGate.ts): signing extends what was signed, never a forgery.
   */
  startSigning(key: LedgerSigningKey, record: CheckpointRecordTarget | null): void {
    const ledgerId = this.ledgerId;
    if (!ledgerId) throw new Error('the ledger is empty: append an entry before signing checkpoints');
    this.signingKey = key;
    this.checkpoints = new CheckpointWriter(this.db, key, Buffer.from(ledgerId, 'hex'), record, this.onError);
    this.checkpointHead();
  }

  /** The key signing this ledger's checkpoints, once signing started (an export's end line is signed with it). */
  get signer(): LedgerSigningKey | undefined {
    return this.signingKey;
  }

  append(event: LedgerAppend): LedgerEntry {
    if (this.closed) throw new Error(`the ledger is closed: "${event.type}" was not recorded`);
    if (this.db.inTransaction && !this.inTransact) {
      // Writing queued entries into somebody else's transaction would lose them if it rolled back.
      throw new Error('Ledger.append inside a database transaction: use ledger.transact(work) so the change and its entry commit together');
    }
    const queued = this.enqueue(event);
    if (!this.inTransact) {
      if (this.pending.length >= this.batchSize) this.flush();
      else this.scheduleFlush();
    }
    return queued.entry;
  }

  /**
   * Runs `work` (which changes other tables and appends the entries recording it) in one transaction together with
   * every queued entry. If `work` throws, nothing of it lands: its entries are dropped and the chain continues as if
   * they had never been appended; entries queued before stay queued.
   */
  transact<T>(work: () => T): T {
    if (this.inTransact || this.db.inTransaction) throw new Error('ledger.transact cannot be nested in another transaction');
    const queuedBefore = this.pending.length;
    const headSeqBefore = this.headSeq;
    this.inTransact = true;
    try {
      return this.writeTransaction(work);
    } catch (error) {
      this.pending.length = queuedBefore;
      this.headSeq = headSeqBefore;
      throw error;
    } finally {
      this.inTransact = false;
    }
  }

  /** Writes every queued entry now, in one transaction. Throws (keeping them queued) if the write fails. */
  flush(): void {
    if (this.pending.length === 0 || this.inTransact) return;
    this.writeTransaction(() => undefined);
  }

  /** Newest first; `beforeSeq` pages backwards. */
  list(options: { sessionId?: string; beforeSeq?: number; limit: number }): LedgerEntry[] {
    this.flush();
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

  /** Committed entries after `seq`, oldest first. */
  after(seq: number, limit: number): LedgerEntry[] {
    this.flush();
    return this.selectAfter.all(seq, limit).map(toEntry);
  }

  /**
   * Writes what is queued, signs a closing checkpoint over the whole ledger, and waits for the keychain to record
   * it. Nothing can be appended afterwards.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.checkpointHead();
    this.closed = true;
    await this.checkpoints?.drain();
    this.appended.dispose();
  }

  dispose(): void {
    if (this.closed) return;
    try {
      this.flush();
    } finally {
      this.closed = true;
      this.appended.dispose();
    }
  }

  private enqueue(event: LedgerAppend): PendingEntry {
    const scrubbed = this.scrub(event.payload ?? {});
    const payload = canonicalJson(scrubbed);
    const ts = this.now();
    const sessionId = event.sessionId ?? null;
    const seq = this.headSeq + 1;
    const queued: PendingEntry = { entry: { seq, ts, type: event.type, actor: event.actor, sessionId, payload: scrubbed }, payload };
    this.pending.push(queued);
    this.headSeq = seq;
    return queued;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      try {
        this.flush();
      } catch (error) {
        // Still queued: the next append or flush tries again.
        this.onError(error);
      }
    });
  }

  /** One transaction: `work`, then every queued entry (with its checkpoints); then the commit's bookkeeping. */
  private writeTransaction<T>(work: () => T): T {
    let result: T;
    try {
      result = this.workThenPending(work) as T;
    } catch (error) {
      this.writtenHead = undefined;
      this.checkpoints?.settle(false);
      throw error;
    }
    this.committed();
    return result;
  }

  /**
   * Inside a transaction: chains the queued entries after the newest written one and inserts them, signing a
   * checkpoint at every multiple of checkpointEvery. Chaining here, as each row is inserted, rather than at append
   * keeps no hash per queued entry; if the transaction fails, the next one chains again from the last committed entry.
   */
  private writePending(): void {
    const pending = this.pending;
    if (pending.length === 0) return;
    const chain = this.chain;
    chain.startAfter(this.committedHead.hash);
    const checkpoints = this.checkpoints;
    for (const queued of pending) {
      const { entry } = queued;
      chain.next(entry.seq, entry.ts, entry.type, entry.actor, entry.sessionId, queued.payload);
      this.insert.run(entry.seq, entry.ts, entry.type, entry.actor, entry.sessionId, chain.payloadCommit, chain.prevHash, chain.entryHash, queued.payload, chain.salt);
      // After the row it covers: the table refuses a checkpoint ahead of the ledger.
      if (checkpoints && entry.seq % this.checkpointEvery === 0) checkpoints.sign(entry.seq, Buffer.from(chain.entryHash), entry.ts);
    }
    this.writtenHead = { seq: pending[pending.length - 1].entry.seq, hash: Buffer.from(chain.entryHash) };
  }

  /** After a commit: the written entries leave the queue, their checkpoints count, listeners hear of them. */
  private committed(): void {
    const written = this.pending;
    this.pending = [];
    if (this.writtenHead) this.committedHead = this.writtenHead;
    this.writtenHead = undefined;
    this.checkpoints?.settle(true);
    for (const queued of written) this.appended.fire(queued.entry);
  }

  /** Signs a checkpoint over everything written, unless the newest checkpoint already covers it. */
  private checkpointHead(): void {
    const writer = this.checkpoints;
    if (!writer || this.committedHead.seq <= writer.lastSize) return;
    const { seq, hash } = this.committedHead;
    try {
      this.db.transaction(() => writer.sign(seq, hash, this.now()))();
    } catch (error) {
      writer.settle(false);
      throw error;
    }
    writer.settle(true);
  }
}
