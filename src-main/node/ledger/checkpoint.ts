import { createHash, createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';

/**
 * A signed checkpoint: the ledger's key vouches that the ledger had `size` entries and that entry `size` hashed to
 * `headHash`. Each checkpoint also signs the previous checkpoint's signature, so checkpoints form a chain of their
 * own and none can be dropped from the middle unnoticed. The signed message, byte for byte:
 *   DOMAIN ‖ ledger_id (32 bytes) ‖ u64be(size) ‖ head_hash (32 bytes) ‖ 0x00 | 0x01 ‖ previous signature (64 bytes)
 * where ledger_id is the entry_hash of entry 1 (unique per ledger: entry 1 commits to a random salt), so a
 * checkpoint of one ledger can never vouch for another. Ed25519: deterministic signatures, 64 bytes, fast to check.
 */
export const CHECKPOINT_DOMAIN_TAG = Buffer.from('omniscient-shell/ledger-checkpoint/v1\0', 'utf8');
export const SIGNATURE_BYTES = 64;

export interface Checkpoint {
  size: number;
  ts: number;
  headHash: Buffer;
  prevSignature: Buffer | null;
  signature: Buffer;
  /** The signer's public key, SPKI DER, so a checkpoint names the key that made it. */
  publicKey: Buffer;
}

export function checkpointMessage(ledgerId: Buffer, size: number, headHash: Buffer, prevSignature: Buffer | null): Buffer {
  if (ledgerId.length !== 32 || headHash.length !== 32) throw new RangeError('checkpoint: ledger id and head hash are 32 bytes each');
  const message = Buffer.alloc(CHECKPOINT_DOMAIN_TAG.length + 32 + 8 + 32 + 1 + SIGNATURE_BYTES);
  let at = CHECKPOINT_DOMAIN_TAG.copy(message, 0);
  at += ledgerId.copy(message, at);
  at = message.writeBigUInt64BE(BigInt(size), at);
  at += headHash.copy(message, at);
  if (prevSignature) {
    message.writeUInt8(1, at);
    prevSignature.copy(message, at + 1);
  }
  return message;
}

/** A short, stable name for a public key (SPKI DER): the first 16 hex digits of its SHA-256. */
export function keyIdOf(publicKey: Buffer): string {
  return createHash('sha256').update(publicKey).digest('hex').slice(0, 16);
}

export function publicKeyFromDer(der: Buffer): KeyObject {
  return createPublicKey({ key: der, format: 'der', type: 'spki' });
}

/** True when `checkpoint.signature` is `publicKey`'s signature over the checkpoint of `ledgerId`. */
export function checkpointSignatureValid(ledgerId: Buffer, checkpoint: Checkpoint, publicKey: KeyObject): boolean {
  if (checkpoint.signature.length !== SIGNATURE_BYTES) return false;
  const message = checkpointMessage(ledgerId, checkpoint.size, checkpoint.headHash, checkpoint.prevSignature);
  try {
    return verifySignature(null, message, publicKey, checkpoint.signature);
  } catch {
    return false;
  }
}

/**
 * An export's end line is signed too, so its last entry is covered by a signature even when the ledger had grown
 * past its newest checkpoint: whoever cuts an export short, or appends to it, must forge this. The signed message:
 *   EXPORT_END_DOMAIN ‖ ledger_id (32 bytes) ‖ u64be(size) ‖ head_hash (32 bytes) ‖ newest checkpoint's signature
 *   (64 bytes; zeros when the export carries none)
 * A domain of its own: an end signature can never pass for a checkpoint of the ledger, nor the other way round.
 */
export const EXPORT_END_DOMAIN_TAG = Buffer.from('omniscient-shell/ledger-export-end/v1\0', 'utf8');

export function exportEndMessage(ledgerId: Buffer, size: number, headHash: Buffer, newestCheckpointSignature: Buffer | null): Buffer {
  if (ledgerId.length !== 32 || headHash.length !== 32) throw new RangeError('export end: ledger id and head hash are 32 bytes each');
  const message = Buffer.alloc(EXPORT_END_DOMAIN_TAG.length + 32 + 8 + 32 + SIGNATURE_BYTES);
  let at = EXPORT_END_DOMAIN_TAG.copy(message, 0);
  at += ledgerId.copy(message, at);
  at = message.writeBigUInt64BE(BigInt(size), at);
  at += headHash.copy(message, at);
  newestCheckpointSignature?.copy(message, at);
  return message;
}

/** True when `signature` is `publicKey`'s signature over an export's end (see exportEndMessage). */
export function exportEndSignatureValid(message: Buffer, signature: Buffer, publicKey: KeyObject): boolean {
  if (signature.length !== SIGNATURE_BYTES) return false;
  try {
    return verifySignature(null, message, publicKey, signature);
  } catch {
    return false;
  }
}
