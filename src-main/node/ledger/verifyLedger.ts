import type { KeyObject } from 'node:crypto';
import type { LedgerCheckpointInfo, LedgerVerdict } from '../../../src-preload/contract';
import { checkpointSignatureValid, keyIdOf, publicKeyFromDer, type Checkpoint } from './checkpoint';
import type { LedgerRecord } from './ledgerRecord';
import { checkAgainstRecords, recordSeqs } from './recordChecks';
import { ChainVerifier, type ChainVerdict, type StoredEntry } from './verifyChain';

/** What the checkpoints' signatures are checked against. */
export interface CheckpointTrust {
  /**
   * The ledger's public key (SPKI DER) from a trusted place: the keychain that holds the private key, or a key file
   * the user pinned. Null: only the key written in the checkpoints themselves, which proves consistency but not
   * authorship (anyone can re-sign with a key of their own), and the verdict says so.
   */
  publicKey: Buffer | null;
  source: 'keychain' | 'key-file' | null;
  /**
   * The keychain's record of this file's newest checkpoint: catches checkpoints deleted, a tail cut, a rewrite
   * re-chained, a file emptied or replaced, even when the file has no checkpoint left to fail.
   */
  record?: LedgerRecord | null;
  /** The records of other files holding the same ledger (copies of it), which a copy without a record must agree with. */
  siblings?: LedgerRecord[];
  /** Said in the verdict's notes, e.g. why the keychain could not be asked. */
  notes?: string[];
}

const short = (hash: Buffer | string): string => `${(typeof hash === 'string' ? hash : hash.toString('hex')).slice(0, 16)}…`;

/**
 * The checkpoint half of verification. Fed, in seq order, the hash of every entry a checkpoint names (once the chain
 * up to it has been verified), it checks that each checkpoint vouches for exactly that entry, follows the previous
 * checkpoint and is signed by the trusted key; `finish` then checks that no checkpoint (nor the keychain's record)
 * vouches for entries that are gone. Driven by LedgerVerifier entry by entry, or after a parallel chain check.
 */
export class CheckpointVerifier {
  private readonly checkpoints: Checkpoint[];
  private next = 0;
  private trustedKey: KeyObject | undefined;
  private trustedKeyDer: Buffer | undefined;
  private lastGood: { checkpoint: Checkpoint; source: LedgerCheckpointInfo['keySource'] } | undefined;
  /** Sizes of the checkpoints that verified, ascending. */
  private readonly goodSizes: number[] = [];
  /** Entry hashes at the seqs the keychain's records name. */
  private readonly recordHashes = new Map<number, string>();
  private readonly wantedForRecords: Set<number>;

  constructor(
    checkpoints: Checkpoint[],
    private readonly trust: CheckpointTrust,
    /** Entry 1's hash: the checkpoints sign it as the ledger's identity. */
    private ledgerId: Buffer | undefined = undefined,
  ) {
    this.checkpoints = [...checkpoints].sort((a, b) => a.size - b.size);
    if (trust.publicKey) this.setTrustedKey(trust.publicKey);
    this.wantedForRecords = new Set(recordSeqs(trust.record, trust.siblings ?? []));
  }

  /** The seqs whose entry hashes the checkpoints and the keychain's records need, in order. */
  get seqs(): number[] {
    return [...new Set([...this.checkpoints.map((c) => c.size), ...this.wantedForRecords])].sort((a, b) => a - b);
  }

  /** Given a verified entry's hash: a failing verdict if the checkpoint at that seq (if any) is bad. */
  at(seq: number, entryHash: Buffer): LedgerVerdict | undefined {
    if (seq === 1) this.ledgerId = entryHash;
    if (this.wantedForRecords.has(seq)) this.recordHashes.set(seq, entryHash.toString('hex'));
    const checkpoint = this.checkpoints[this.next];
    if (!checkpoint || checkpoint.size !== seq) return undefined;
    this.next++;
    const failure = this.check(checkpoint, entryHash);
    if (!failure) return undefined;
    const from = this.lastGood?.checkpoint.size ?? 0;
    // A signed head that no longer matches says a rewrite happened somewhere it covers, not which entry: the chain
    // before it verified, so the rewrite was re-chained.
    if (failure.rewritten) return { intact: false, size: from, firstBadSeq: from + 1, reason: failure.reason, changed: { from: from + 1, to: checkpoint.size } };
    return { intact: false, size: from, firstBadSeq: from + 1, reason: failure.reason };
  }

  /** The verdict for a ledger whose chain verified as `chain`. */
  finish(chain: ChainVerdict & { intact: true }): LedgerVerdict {
    const beyond = this.checkpoints[this.next];
    if (beyond) {
      return {
        intact: false,
        size: chain.size,
        firstBadSeq: chain.size + 1,
        reason: `the ledger ends at seq ${chain.size}, but a signed checkpoint vouches for ${beyond.size} entries: entries ${chain.size + 1}-${beyond.size} were removed`,
      };
    }
    const newest = this.lastGood?.checkpoint;
    const records = checkAgainstRecords(
      {
        ledgerId: chain.size > 0 ? this.ledgerId?.toString('hex') : undefined,
        size: chain.size,
        hashAt: (seq) => this.recordHashes.get(seq),
        newestCheckpoint: newest ? { size: newest.size, signature: newest.signature.toString('hex') } : undefined,
        signedBelow: (seq) => this.goodSizes.filter((size) => size < seq).pop() ?? 0,
      },
      this.trust.record,
      this.trust.siblings ?? [],
    );
    if (records.failure) return records.failure;
    const notes = [...(this.trust.notes ?? []), ...records.notes];
    if (this.lastGood?.source === 'embedded') {
      notes.push(
        `signatures were checked against the key written in the ledger itself (${keyIdOf(this.lastGood.checkpoint.publicKey)}); pin the ledger's public key (--key) to prove who signed`,
      );
    }
    if (chain.redacted > 0) notes.push(`${chain.redacted} payloads are redacted: their commitments are in the chain, their contents are not disclosed`);
    if (chain.elided > 0) notes.push(`${chain.elided} entries of other sessions are elided: their place in the chain was checked, their contents are not disclosed`);
    if (newest && newest.size < chain.size) notes.push(`entries ${newest.size + 1}-${chain.size} are not yet covered by a signed checkpoint`);
    return {
      intact: true,
      size: chain.size,
      headHash: chain.headHash,
      redacted: chain.redacted,
      checkpoint: newest && this.lastGood ? { seq: newest.size, ts: newest.ts, keyId: keyIdOf(newest.publicKey), keySource: this.lastGood.source } : null,
      notes,
    };
  }

  /** The key the checkpoints were checked against (pinned, from the keychain, or the ledger's own), once one was. */
  get verifiedKey(): KeyObject | undefined {
    return this.trustedKey;
  }

  /** The newest checkpoint that verified. */
  get newestVerified(): Checkpoint | undefined {
    return this.lastGood?.checkpoint;
  }

  private setTrustedKey(der: Buffer): void {
    this.trustedKeyDer = der;
    this.trustedKey = publicKeyFromDer(der);
  }

  private check(checkpoint: Checkpoint, entryHash: Buffer): { reason: string; rewritten?: true } | undefined {
    const reason = this.problemWith(checkpoint, entryHash);
    if (reason === undefined) {
      this.goodSizes.push(checkpoint.size);
      return undefined;
    }
    return typeof reason === 'string' ? { reason } : reason;
  }

  private problemWith(checkpoint: Checkpoint, entryHash: Buffer): string | { reason: string; rewritten: true } | undefined {
    const at = `the signed checkpoint at seq ${checkpoint.size}`;
    if (!checkpoint.headHash.equals(entryHash)) {
      const from = (this.lastGood?.checkpoint.size ?? 0) + 1;
      return {
        reason: `${at} vouches for an entry ${checkpoint.size} with hash ${short(checkpoint.headHash)}, but it hashes to ${short(entryHash)}: entries ${from}-${checkpoint.size} were rewritten and re-chained after they were signed`,
        rewritten: true,
      };
    }
    const expectedPrev = this.lastGood?.checkpoint.signature ?? null;
    if (expectedPrev === null ? checkpoint.prevSignature !== null : !checkpoint.prevSignature?.equals(expectedPrev)) {
      return `${at} does not follow the checkpoint before it (checkpoints were removed or replaced)`;
    }
    const source: LedgerCheckpointInfo['keySource'] = this.trustedKeyDer && this.trust.source ? this.trust.source : 'embedded';
    if (!this.trustedKeyDer) {
      try {
        this.setTrustedKey(checkpoint.publicKey);
      } catch {
        return `${at} carries a public key that is not a valid Ed25519 key`;
      }
    }
    if (!checkpoint.publicKey.equals(this.trustedKeyDer!)) {
      return `${at} was signed by key ${keyIdOf(checkpoint.publicKey)}, not by the ledger's key ${keyIdOf(this.trustedKeyDer!)}`;
    }
    if (!this.ledgerId || !checkpointSignatureValid(this.ledgerId, checkpoint, this.trustedKey!)) {
      return `${at} has a signature that does not verify with key ${keyIdOf(this.trustedKeyDer!)} (forged or altered)`;
    }
    this.lastGood = { checkpoint, source };
    return undefined;
  }
}

/** Verifies a ledger from its first entry, one entry at a time: the chain (ChainVerifier), then its checkpoints. */
export class LedgerVerifier {
  private readonly chain = new ChainVerifier();
  private readonly checkpoints: CheckpointVerifier;
  private failure: LedgerVerdict | undefined;

  constructor(checkpoints: Checkpoint[], trust: CheckpointTrust) {
    this.checkpoints = new CheckpointVerifier(checkpoints, trust);
  }

  get checked(): number {
    return this.chain.checked;
  }

  /** The checkpoint half, for what it verified (its key, its newest checkpoint). */
  get checkpointsVerified(): Pick<CheckpointVerifier, 'verifiedKey' | 'newestVerified'> {
    return this.checkpoints;
  }

  push(entry: StoredEntry): LedgerVerdict | undefined {
    if (this.failure) return this.failure;
    const chainFailure = this.chain.push(entry);
    this.failure = chainFailure && !chainFailure.intact ? chainFailure : this.checkpoints.at(entry.seq, entry.entryHash);
    return this.failure;
  }

  finish(): LedgerVerdict {
    if (this.failure) return this.failure;
    const chain = this.chain.finish();
    return chain.intact ? this.checkpoints.finish(chain) : chain;
  }
}

export function verifyLedger(entries: Iterable<StoredEntry>, checkpoints: Checkpoint[], trust: CheckpointTrust): LedgerVerdict {
  const verifier = new LedgerVerifier(checkpoints, trust);
  for (const entry of entries) if (verifier.push(entry)) break;
  return verifier.finish();
}

/** The same check, yielding to the event loop every `slice` entries so the host keeps serving while it runs. */
export async function verifyLedgerInSlices(
  entries: Iterable<StoredEntry>,
  checkpoints: Checkpoint[],
  trust: CheckpointTrust,
  onProgress: (checked: number) => void = () => {},
  slice = 20_000,
): Promise<LedgerVerdict> {
  const verifier = new LedgerVerifier(checkpoints, trust);
  let sinceYield = 0;
  for (const entry of entries) {
    if (verifier.push(entry)) break;
    if (++sinceYield >= slice) {
      sinceYield = 0;
      onProgress(verifier.checked);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return verifier.finish();
}
