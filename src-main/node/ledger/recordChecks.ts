import type { LedgerVerdict } from '../../../src-preload/contract';
import type { LedgerRecord } from './ledgerRecord';

/** What the checkpoint pass learned, for comparing with the keychain's records once the chain verified. */
export interface VerifiedLedgerState {
  /** Hex of entry 1's hash; undefined for an empty ledger. */
  ledgerId: string | undefined;
  size: number;
  /** Entry hashes (hex) at the seqs the records name, for those the ledger has. */
  hashAt: (seq: number) => string | undefined;
  /** The newest checkpoint that verified (size and signature hex), if any. */
  newestCheckpoint: { size: number; signature: string } | undefined;
  /** The size of the newest verified checkpoint below `seq` (0 when none): a rewrite below it would have failed it. */
  signedBelow: (seq: number) => number;
}

const short = (hex: string): string => `${hex.slice(0, 16)}…`;

/** A rewrite caught only by a signed head: the range between the last intact signature and that head. */
function changedWithin(from: number, to: number, reason: string): LedgerVerdict {
  return { intact: false, size: from - 1, firstBadSeq: from, reason, changed: { from, to } };
}

function rewrittenUpTo(state: VerifiedLedgerState, record: LedgerRecord, whose: string): LedgerVerdict | undefined {
  const hash = state.hashAt(record.size);
  if (hash === undefined || hash === record.headHash) return undefined;
  const from = state.signedBelow(record.size) + 1;
  return changedWithin(
    from,
    record.size,
    `${whose} records entry ${record.size} as signed with hash ${short(record.headHash)}, but here it hashes to ${short(hash)}: entries ${from}-${record.size} were rewritten and re-chained after they were signed`,
  );
}

/**
 * This file's own record: the file must hold that ledger, at least that many entries, the recorded head at the
 * recorded size, and checkpoints up to it. Anything less is a file edited behind the host's back (or one restored
 * over the original from an older backup, which the message names).
 */
function checkOwnRecord(state: VerifiedLedgerState, record: LedgerRecord): LedgerVerdict | undefined {
  if (state.ledgerId !== record.ledgerId) {
    const what =
      state.ledgerId === undefined
        ? 'the ledger here is empty: its entries were deleted'
        : `the ledger here is another one (${short(state.ledgerId)}): the file was replaced, or rewritten from its first entry`;
    return changedWithin(1, record.size, `the keychain records this file's ledger ${short(record.ledgerId)} as signed up to seq ${record.size}, but ${what}`);
  }
  if (state.size < record.size) {
    return {
      intact: false,
      size: state.size,
      firstBadSeq: state.size + 1,
      reason:
        `the keychain records a signed checkpoint at seq ${record.size}, but the ledger ends at seq ${state.size}: entries ${state.size + 1}-${record.size} were removed ` +
        `(or this file was restored from an older backup; a backup belongs in a folder of its own, where it is checked as a copy)`,
    };
  }
  const rewritten = rewrittenUpTo(state, record, 'the keychain');
  if (rewritten) return rewritten;
  const newest = state.newestCheckpoint;
  if (!newest || newest.size < record.size) {
    const stop = newest ? `its signed checkpoints stop at seq ${newest.size}` : 'it has no signed checkpoint';
    return {
      intact: false,
      size: newest?.size ?? 0,
      firstBadSeq: (newest?.size ?? 0) + 1,
      reason: `the keychain records a signed checkpoint at seq ${record.size}, but ${stop}: checkpoints were deleted`,
    };
  }
  if (newest.size === record.size && newest.signature !== record.signature) {
    return { intact: false, size: newest.size - 1, firstBadSeq: newest.size, reason: `the checkpoint at seq ${newest.size} differs from the one the keychain recorded: checkpoints were replaced` };
  }
  return undefined;
}

/**
 * A file with no record of its own whose ledger other files have signed: a copy. Where the copy is at least as long
 * as a sibling's record it must hold that sibling's signed head; where it is shorter (an older backup) it must carry
 * signed checkpoints of its own, or nothing in it can be vouched for.
 */
function checkAsCopy(state: VerifiedLedgerState, siblings: LedgerRecord[], notes: string[]): LedgerVerdict | undefined {
  for (const sibling of siblings) {
    const where = `this file is a copy of the ledger at ${sibling.file}, which the keychain records as signed up to seq ${sibling.size}`;
    if (state.size >= sibling.size) {
      const rewritten = rewrittenUpTo(state, sibling, `${where}; the keychain`);
      if (rewritten) return rewritten;
      notes.push(`${where}; this copy agrees with it there (a fork: each copy is checked against its own record once it signs)`);
    } else if (!state.newestCheckpoint) {
      return {
        intact: false,
        size: 0,
        firstBadSeq: 1,
        reason: `${where}, but this copy has ${state.size} entries and no signed checkpoint: its checkpoints were deleted, or it was cut before its first one, so nothing in it can be vouched for`,
      };
    } else {
      notes.push(`${where}; this copy is older (${state.size} entries, signed up to seq ${state.newestCheckpoint.size}): a backup or a fork`);
    }
  }
  return undefined;
}

/** Compares a ledger whose chain and checkpoints verified with the keychain's records: a failing verdict, or notes. */
export function checkAgainstRecords(state: VerifiedLedgerState, record: LedgerRecord | null | undefined, siblings: LedgerRecord[]): { failure?: LedgerVerdict; notes: string[] } {
  const notes: string[] = [];
  if (record) {
    const failure = checkOwnRecord(state, record);
    if (failure) return { failure, notes };
    if (record.forkOf) notes.push(`this file is a fork: it began signing as a copy of the ledger at ${record.forkOf.file} (signed there up to seq ${record.forkOf.size})`);
    for (const sibling of siblings) notes.push(`the same ledger is also kept at ${sibling.file} (signed there up to seq ${sibling.size}): a fork, checked against its own record`);
    return { notes };
  }
  const failure = checkAsCopy(state, siblings, notes);
  return failure ? { failure, notes } : { notes };
}

/** The seqs whose entry hashes the record checks need. */
export function recordSeqs(record: LedgerRecord | null | undefined, siblings: LedgerRecord[]): number[] {
  return [...(record ? [record.size] : []), ...siblings.map((s) => s.size)];
}
