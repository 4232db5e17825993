import { hash as oneShotHash } from 'node:crypto';
import { DOMAIN_TAG, drawSalt, maxUtf8Bytes, preimage, preimageBuffer, SALT_BYTES, writeInt64BE, writeLengthPrefixed } from './entryHash';

/** The writer's entry preimages fit here unless type, actor or session id is unusually long (then: a buffer of its own). */
const ENTRY_SCRATCH_BYTES = 1024;

/**
 * The ledger writer's side of the hash chain (entryHash.ts defines it): entries are chained one after another, as
 * they are inserted, into one fixed 112-byte row
 *   bytes 0–31 payload_commit · 32–63 prev_hash · 64–95 entry_hash · 96–111 salt
 * with a fixed view per column to bind to the INSERT (SQLite copies a bound blob, so the row can be reused at once).
 *
 * Why not entryHash() and payloadCommit(): they return new Buffers, and creating a Buffer view has a cost, three
 * times per entry; the entry preimage here also keeps its domain tag written once and takes payload_commit ‖
 * prev_hash in the same pass that fills the row (figures: docs/performance.md#ledger). A test holds the rows to the
 * bytes entryHash() and payloadCommit() give.
 */
export class RowChainer {
  private readonly row = Buffer.allocUnsafeSlow(112);
  readonly payloadCommit = this.row.subarray(0, 32);
  readonly prevHash = this.row.subarray(32, 64);
  readonly entryHash = this.row.subarray(64, 96);
  readonly salt = this.row.subarray(96, 96 + SALT_BYTES);
  /** Entry preimages, the domain tag written once; views of its first n bytes by n (the hash needs exact views). */
  private readonly entryScratch = Buffer.allocUnsafeSlow(ENTRY_SCRATCH_BYTES);
  private readonly entryViews = new Array<Buffer | undefined>(ENTRY_SCRATCH_BYTES + 1);

  constructor() {
    this.entryScratch.set(DOMAIN_TAG, 0);
  }

  /** The next entry follows the one whose hash this is (the newest written entry's, or the genesis hash). */
  startAfter(hash: Buffer): void {
    this.entryHash.set(hash);
  }

  /**
   * Chains the next entry: the last entry's hash becomes prev_hash; a fresh salt, payload_commit and entry_hash are
   * filled in. Read the column views before the next call. `canonicalPayload` is the payload's canonical JSON.
   */
  next(seq: number, ts: number, type: string, actor: string, sessionId: string | null, canonicalPayload: string): void {
    const row = this.row;
    for (let i = 0; i < 32; i++) row[32 + i] = row[64 + i];
    // The entry's fields first, up to where payload_commit ‖ prev_hash go.
    const maxSize = DOMAIN_TAG.length + 16 + 4 + maxUtf8Bytes(type) + 4 + maxUtf8Bytes(actor) + 1 + (sessionId === null ? 0 : 4 + maxUtf8Bytes(sessionId)) + 64;
    let entry = this.entryScratch;
    if (maxSize > ENTRY_SCRATCH_BYTES) {
      entry = Buffer.allocUnsafeSlow(maxSize);
      entry.set(DOMAIN_TAG, 0);
    }
    writeInt64BE(entry, seq, DOMAIN_TAG.length);
    writeInt64BE(entry, ts, DOMAIN_TAG.length + 8);
    let end = writeLengthPrefixed(entry, type, DOMAIN_TAG.length + 16);
    end = writeLengthPrefixed(entry, actor, end);
    if (sessionId === null) {
      entry[end++] = 0;
    } else {
      entry[end++] = 1;
      end = writeLengthPrefixed(entry, sessionId, end);
    }
    // payload_commit = SHA-256(salt ‖ UTF-8(payload)).
    drawSalt(row, 96);
    const commitInput = preimageBuffer(SALT_BYTES + maxUtf8Bytes(canonicalPayload));
    for (let i = 0; i < SALT_BYTES; i++) commitInput[i] = row[96 + i];
    const commitSize = SALT_BYTES + commitInput.write(canonicalPayload, SALT_BYTES, 'utf8');
    // Digests come back as 'binary' (latin1) strings, one character per byte: far cheaper than a new Buffer each.
    const commit = oneShotHash('sha256', preimage(commitInput, commitSize), 'binary');
    for (let i = 0; i < 32; i++) {
      const byte = commit.charCodeAt(i);
      row[i] = byte;
      entry[end + i] = byte;
    }
    for (let i = 0; i < 32; i++) entry[end + 32 + i] = row[32 + i];
    end += 64;
    const entryInput = entry === this.entryScratch ? (this.entryViews[end] ??= entry.subarray(0, end)) : entry.subarray(0, end);
    const hash = oneShotHash('sha256', entryInput, 'binary');
    for (let i = 0; i < 32; i++) row[64 + i] = hash.charCodeAt(i);
  }
}
