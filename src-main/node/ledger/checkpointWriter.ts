import type { Database } from '../store/database';
import type { Keychain } from '../vault/keychain';
import { checkpointMessage, type Checkpoint } from './checkpoint';
import { writeFileRecord, type LedgerRecord } from './ledgerRecord';
import type { LedgerSigningKey } from './ledgerSigningKey';

/** Where the newest checkpoint is also recorded: this file's keychain record (and, for a fork, what it forked from). */
export interface CheckpointRecordTarget {
  keychain: Keychain;
  file: string;
  forkOf?: LedgerRecord['forkOf'];
}

/**
 * Signs and stores checkpoints for one ledger. `sign` runs inside the ledger's write transaction, so a checkpoint
 * lands with the entries it covers or not at all; the keychain copy of the newest one is written after the commit
 * (keychain calls are asynchronous), one write at a time and in order.
 */
export class CheckpointWriter {
  private readonly insert;
  private last: { size: number; signature: Buffer; headHash: Buffer } | null;
  /** The newest checkpoint before the current transaction's, while that transaction is open. */
  private beforeUnsettled: { size: number; signature: Buffer; headHash: Buffer } | null | undefined;
  private keychainWrites: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly key: LedgerSigningKey,
    private readonly ledgerId: Buffer,
    /** Where the newest checkpoint is also recorded; null records it nowhere else (a ledger checked offline only). */
    private readonly recordTarget: CheckpointRecordTarget | null,
    private readonly onError: (error: unknown) => void,
  ) {
    this.insert = db.prepare('INSERT INTO ledger_checkpoints (size, ts, head_hash, prev_signature, signature, public_key) VALUES (?, ?, ?, ?, ?, ?)');
    const row = db
      .prepare<[], { size: number; signature: Buffer; head_hash: Buffer }>('SELECT size, signature, head_hash FROM ledger_checkpoints ORDER BY size DESC LIMIT 1')
      .get();
    this.last = row ? { size: row.size, signature: row.signature, headHash: row.head_hash } : null;
  }

  /** The size the newest checkpoint covers (0 when there is none). */
  get lastSize(): number {
    return this.last?.size ?? 0;
  }

  /**
   * Inside the caller's transaction: signs that the ledger has `size` entries ending in `headHash`. Counts as the
   * newest checkpoint at once (a batch may sign several, each over the one before); `settle` says how it ended.
   */
  sign(size: number, headHash: Buffer, ts: number): Checkpoint {
    if (this.beforeUnsettled === undefined) this.beforeUnsettled = this.last;
    const prevSignature = this.last?.signature ?? null;
    const signature = this.key.sign(checkpointMessage(this.ledgerId, size, headHash, prevSignature));
    this.insert.run(size, ts, headHash, prevSignature, signature, this.key.publicKey);
    this.last = { size, signature, headHash };
    return { size, ts, headHash, prevSignature, signature, publicKey: this.key.publicKey };
  }

  /** After the transaction that called `sign` committed (the keychain then records the newest) or rolled back. */
  settle(committed: boolean): void {
    if (this.beforeUnsettled === undefined) return;
    if (!committed) {
      this.last = this.beforeUnsettled;
      this.beforeUnsettled = undefined;
      return;
    }
    this.beforeUnsettled = undefined;
    const newest = this.last;
    if (!newest || !this.recordTarget) return;
    const { keychain, file, forkOf } = this.recordTarget;
    const record: LedgerRecord = {
      file,
      ledgerId: this.ledgerId.toString('hex'),
      size: newest.size,
      headHash: newest.headHash.toString('hex'),
      signature: newest.signature.toString('hex'),
      ...(forkOf ? { forkOf } : {}),
    };
    this.keychainWrites = this.keychainWrites.then(() => writeFileRecord(keychain, record)).catch(this.onError);
  }

  /** Resolves once every keychain write so far has finished. */
  drain(): Promise<void> {
    return this.keychainWrites;
  }
}
