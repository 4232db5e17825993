import { entryHash, GENESIS_HASH, payloadCommit, SALT_BYTES } from './entryHash';

/** One entry as stored (in the database or an export). `payload`/`salt` are null when the entry was redacted. */
export interface StoredEntry {
  seq: number;
  ts: number;
  type: string;
  actor: string;
  sessionId: string | null;
  payloadCommit: Buffer;
  prevHash: Buffer;
  entryHash: Buffer;
  /** The canonical JSON text the commitment was made over. */
  payload: string | null;
  salt: Buffer | null;
  /**
   * Only in an export limited to one session: an entry of another session, shown only as its link in the chain
   * (seq, prev_hash, entry_hash). Its linkage is checked; its contents are not disclosed, so its hash is taken as given.
   */
  elided?: boolean;
}

export type ChainVerdict =
  | { intact: true; size: number; headHash: string; redacted: number; elided: number }
  | { intact: false; size: number; firstBadSeq: number; reason: string };

function hex(buffer: Buffer): string {
  return buffer.toString('hex');
}

/**
 * Walks a ledger from its first entry and stops at the first entry that is not what the chain says it must be:
 * a gap or repeat in seq, a prev_hash that is not the previous entry's hash, an entry_hash that does not match its
 * fields, or an unredacted payload that does not match its commitment. `size` is how many entries were intact.
 * Fed one entry at a time, so the same check runs synchronously (CLI) or in slices that keep the host responsive.
 */
export class ChainVerifier {
  private expectedSeq: number;
  private prevHash: Buffer;
  private redacted = 0;
  private elided = 0;
  private failure: ChainVerdict | undefined;

  /**
   * From the first entry, or (for one slice of a parallel check) from `start.seq`, taking `start.prevHash` as the
   * hash of the entry before it, which the slice before verifies.
   */
  constructor(start: { seq: number; prevHash: Buffer } = { seq: 1, prevHash: GENESIS_HASH }) {
    this.expectedSeq = start.seq;
    this.prevHash = start.prevHash;
  }

  /** Checks one entry; returns the failing verdict once an entry is bad (and ignores everything after it). */
  push(entry: StoredEntry): ChainVerdict | undefined {
    if (this.failure) return this.failure;
    const reason = this.check(entry);
    if (reason) {
      this.failure = { intact: false, size: this.expectedSeq - 1, firstBadSeq: this.expectedSeq, reason };
      return this.failure;
    }
    this.prevHash = entry.entryHash;
    this.expectedSeq++;
    return undefined;
  }

  get checked(): number {
    return this.expectedSeq - 1;
  }

  finish(): ChainVerdict {
    return this.failure ?? { intact: true, size: this.expectedSeq - 1, headHash: hex(this.prevHash), redacted: this.redacted, elided: this.elided };
  }

  private check(entry: StoredEntry): string | undefined {
    const expected = this.expectedSeq;
    if (entry.seq !== expected) {
      return entry.seq > expected
        ? `entry ${expected} is missing (the next entry found has seq ${entry.seq})`
        : `seq ${entry.seq} appears where seq ${expected} should be (entries repeated or reordered)`;
    }
    if (!entry.prevHash.equals(this.prevHash)) {
      return `its prev_hash ${hex(entry.prevHash).slice(0, 16)}… is not the hash of entry ${expected - 1} (${hex(this.prevHash).slice(0, 16)}…)`;
    }
    if (entry.elided) {
      if (entry.entryHash.length !== 32) return 'its entry_hash is not 32 bytes';
      this.elided++;
      return undefined;
    }
    if (entry.payload !== null) {
      if (!entry.salt || entry.salt.length !== SALT_BYTES) return 'its payload is present but its salt is missing or malformed';
      if (!payloadCommit(entry.salt, entry.payload).equals(entry.payloadCommit)) {
        return 'its payload does not match its payload commitment (the payload or the commitment was changed)';
      }
    } else {
      this.redacted++;
    }
    if (!entryHash(entry).equals(entry.entryHash)) {
      return 'its entry_hash does not match its fields (seq, ts, type, actor, session or commitment was changed)';
    }
    return undefined;
  }
}

export function verifyChain(entries: Iterable<StoredEntry>): ChainVerdict {
  const verifier = new ChainVerifier();
  for (const entry of entries) if (verifier.push(entry)) break;
  return verifier.finish();
}
