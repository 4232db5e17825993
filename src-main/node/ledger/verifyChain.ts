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
}

export type ChainVerdict =
  | { intact: true; size: number; headHash: string; redacted: number }
  | { intact: false; size: number; firstBadSeq: number; reason: string };

function hex(buffer: Buffer): string {
  return buffer.toString('hex');
}

/**
 * Walks a ledger from its first entry and stops at the first entry that is not what the chain says it must be:
 * a gap or repeat in seq, a prev_hash that is not the previous entry's hash, an entry_hash that does not match its
 * fields, or an unredacted payload that does not match its commitment. `size` is how many entries were intact.
 */
export function verifyChain(entries: Iterable<StoredEntry>): ChainVerdict {
  let expectedSeq = 1;
  let prevHash: Buffer = GENESIS_HASH;
  let redacted = 0;
  const bad = (reason: string): ChainVerdict => ({ intact: false, size: expectedSeq - 1, firstBadSeq: expectedSeq, reason });
  for (const entry of entries) {
    if (entry.seq !== expectedSeq) {
      return bad(
        entry.seq > expectedSeq
          ? `entry ${expectedSeq} is missing (the next entry found has seq ${entry.seq})`
          : `seq ${entry.seq} appears where seq ${expectedSeq} should be (entries repeated or reordered)`,
      );
    }
    if (!entry.prevHash.equals(prevHash)) {
      return bad(`its prev_hash ${hex(entry.prevHash).slice(0, 16)}… is not the hash of entry ${expectedSeq - 1} (${hex(prevHash).slice(0, 16)}…)`);
    }
    if (entry.payload !== null) {
      if (!entry.salt || entry.salt.length !== SALT_BYTES) return bad('its payload is present but its salt is missing or malformed');
      if (!payloadCommit(entry.salt, entry.payload).equals(entry.payloadCommit)) {
        return bad('its payload does not match its payload commitment (the payload or the commitment was changed)');
      }
    } else {
      redacted++;
    }
    const recomputed = entryHash(entry);
    if (!recomputed.equals(entry.entryHash)) {
      return bad('its entry_hash does not match its fields (seq, ts, type, actor, session or commitment was changed)');
    }
    prevHash = entry.entryHash;
    expectedSeq++;
  }
  return { intact: true, size: expectedSeq - 1, headHash: hex(prevHash), redacted };
}
