import { hash as oneShotHash, randomBytes } from 'node:crypto';

/**
 * The ledger's hash chain, byte for byte:
 *   payload_commit = SHA-256(salt ‖ UTF-8(canonical JSON of payload))          salt: 16 random bytes per entry
 *   entry_hash     = SHA-256(DOMAIN ‖ u64be(seq) ‖ i64be(ts) ‖ str(type) ‖ str(actor) ‖ session ‖ payload_commit ‖ prev_hash)
 * where str(x) = u32be(byte length) ‖ UTF-8(x), session = 0x00 for none or 0x01 ‖ str(id), and prev_hash of the
 * first entry is 32 zero bytes. Length prefixes make the encoding unambiguous ("ab"+"c" ≠ "a"+"bc"); the salt
 * lets an export drop a payload while its commitment still cannot be brute-forced from guessable contents.
 */
export const DOMAIN_TAG = Buffer.from('omniscient-shell/ledger/v1\0', 'utf8');
export const GENESIS_HASH = Buffer.alloc(32);
export const SALT_BYTES = 16;

export interface ChainFields {
  seq: number;
  ts: number;
  type: string;
  actor: string;
  sessionId: string | null;
  payloadCommit: Buffer;
  prevHash: Buffer;
}

/**
 * Digests are copied into slices of a shared 64 KB buffer. A 32-byte digest Buffer of its own lives on V8's heap,
 * and handing it to SQLite makes V8 move it off the heap first, for each of the three blobs a ledger row binds
 * (docs/performance.md#ledger).
 */
const DIGEST_POOL_SIZE = 64 * 1024;
let digestPool = Buffer.allocUnsafeSlow(DIGEST_POOL_SIZE);
let digestPoolOffset = 0;

/**
 * Node's one-shot hash, asked for the digest as a latin1 string and written into the pool from there. A string comes
 * back from C++ far cheaper than a new Buffer does, and latin1 maps each of the 32 bytes to one character and back
 * unchanged. createHash().update().digest() costs more again (docs/performance.md#ledger).
 */
function sha256(data: Uint8Array): Buffer {
  // 'binary' is Node's other name for latin1.
  const digest = oneShotHash('sha256', data, 'binary');
  if (digestPoolOffset + 32 > DIGEST_POOL_SIZE) {
    // A new pool, never a reused one: earlier digests are views into the old pool and must not change.
    digestPool = Buffer.allocUnsafeSlow(DIGEST_POOL_SIZE);
    digestPoolOffset = 0;
  }
  const at = digestPoolOffset;
  // Copied a character at a time: a call into C++ (write(…, 'latin1')) cost more than these 32 stores.
  for (let i = 0; i < 32; i++) digestPool[at + i] = digest.charCodeAt(i);
  digestPoolOffset += 32;
  return digestPool.subarray(at, at + 32);
}

/**
 * Preimages are laid out in one reused buffer and hashed from there (the hash is done when the call returns, so the
 * next call may overwrite it): a fresh buffer per hash was a tenth of an append's cost. Strings are written with room
 * for their longest UTF-8 form (3 bytes per UTF-16 code unit) and their length prefixes filled in afterwards from
 * what was written, which saves measuring each string first. A preimage larger than the scratch's cap gets a buffer
 * of its own, so one huge payload does not keep megabytes alive.
 */
const SCRATCH_CAP = 64 * 1024;
let scratch = Buffer.allocUnsafeSlow(4096);
/**
 * Views of the scratch's first n bytes, by n, for n up to 1 KB (an entry's preimage, a typical payload's): the hash
 * needs a view of exactly the preimage, and a new one per hash was two allocations an append could do without.
 */
const CACHED_VIEW_BYTES = 1024;
let scratchViews = new Array<Buffer | undefined>(CACHED_VIEW_BYTES + 1);

export function preimageBuffer(maxBytes: number): Buffer {
  if (maxBytes <= scratch.length) return scratch;
  if (maxBytes > SCRATCH_CAP) return Buffer.allocUnsafeSlow(maxBytes);
  scratch = Buffer.allocUnsafeSlow(SCRATCH_CAP);
  scratchViews = new Array<Buffer | undefined>(CACHED_VIEW_BYTES + 1);
  return scratch;
}

/** The first `size` bytes of a buffer preimageBuffer returned. */
export function preimage(buffer: Buffer, size: number): Buffer {
  if (buffer !== scratch || size > CACHED_VIEW_BYTES) return buffer.subarray(0, size);
  return (scratchViews[size] ??= buffer.subarray(0, size));
}

/** Longest UTF-8 form of a JavaScript string: 3 bytes per code unit (a surrogate pair, 2 units, takes 4). */
export const maxUtf8Bytes = (text: string): number => text.length * 3;

/**
 * Salts are cut from a pool filled 1,024 at a time: asking the OS generator for 16 bytes per entry is a large part
 * of an append's cost (docs/performance.md#ledger). Each salt is still fresh, unpredictable bytes.
 */
const SALT_POOL_SIZE = SALT_BYTES * 1024;
let saltPool = Buffer.alloc(0);
let saltPoolOffset = 0;

export function newSalt(): Buffer {
  if (saltPoolOffset + SALT_BYTES > saltPool.length) {
    // A new pool rather than a refill: salts handed out earlier are views into the old one and must never change.
    saltPool = randomBytes(SALT_POOL_SIZE);
    saltPoolOffset = 0;
  }
  const salt = saltPool.subarray(saltPoolOffset, saltPoolOffset + SALT_BYTES);
  saltPoolOffset += SALT_BYTES;
  return salt;
}

/** Copies a fresh salt into `target` at `at` (the writer's rows: no view of the pool per salt). */
export function drawSalt(target: Buffer, at: number): void {
  if (saltPoolOffset + SALT_BYTES > saltPool.length) {
    saltPool = randomBytes(SALT_POOL_SIZE);
    saltPoolOffset = 0;
  }
  for (let i = 0; i < SALT_BYTES; i++) target[at + i] = saltPool[saltPoolOffset + i];
  saltPoolOffset += SALT_BYTES;
}

export function payloadCommit(salt: Buffer, canonicalPayload: string): Buffer {
  const buffer = preimageBuffer(salt.length + maxUtf8Bytes(canonicalPayload));
  buffer.set(salt, 0);
  const size = salt.length + buffer.write(canonicalPayload, salt.length, 'utf8');
  return sha256(preimage(buffer, size));
}

/** Big-endian two's-complement 64-bit integer without a BigInt per call (safe integers only, as seq and ts are). */
export function writeInt64BE(buffer: Buffer, value: number, at: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`ledger integers must be safe integers, got ${value}`);
  // Byte by byte: Buffer's writeInt32BE checks its arguments again on each call, twice per integer.
  const high = Math.floor(value / 2 ** 32);
  const low = value - high * 2 ** 32;
  buffer[at] = (high >> 24) & 0xff;
  buffer[at + 1] = (high >> 16) & 0xff;
  buffer[at + 2] = (high >> 8) & 0xff;
  buffer[at + 3] = high & 0xff;
  buffer[at + 4] = (low >>> 24) & 0xff;
  buffer[at + 5] = (low >>> 16) & 0xff;
  buffer[at + 6] = (low >>> 8) & 0xff;
  buffer[at + 7] = low & 0xff;
}

/**
 * Strings this short (types, actors, session ids) are copied a character at a time while they are ASCII, whose UTF-8
 * form is the characters themselves: cheaper than a call into C++ (buffer.write) for each
 * (docs/performance.md#ledger).
 */
const ASCII_COPY_MAX_CHARS = 64;

/** Writes str(x) = u32be(byte length) ‖ UTF-8(x) at `at`; returns where it ends. */
export function writeLengthPrefixed(buffer: Buffer, text: string, at: number): number {
  const chars = text.length;
  if (chars <= ASCII_COPY_MAX_CHARS) {
    let i = 0;
    for (; i < chars; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) break;
      buffer[at + 4 + i] = code;
    }
    if (i === chars) {
      buffer.writeUInt32BE(chars, at);
      return at + 4 + chars;
    }
  }
  const length = buffer.write(text, at + 4, 'utf8');
  buffer.writeUInt32BE(length, at);
  return at + 4 + length;
}

/**
 * The hashed preimage is laid out in one buffer: verification of a million entries hashes a million of these, and
 * building them from many small buffers was most of its cost.
 */
export function entryHash(fields: ChainFields): Buffer {
  const maxSize =
    DOMAIN_TAG.length + 16 + 4 + maxUtf8Bytes(fields.type) + 4 + maxUtf8Bytes(fields.actor) + 1 + (fields.sessionId === null ? 0 : 4 + maxUtf8Bytes(fields.sessionId)) + 64;
  const buffer = preimageBuffer(maxSize);
  buffer.set(DOMAIN_TAG, 0);
  let at = DOMAIN_TAG.length;
  writeInt64BE(buffer, fields.seq, at);
  writeInt64BE(buffer, fields.ts, at + 8);
  at = writeLengthPrefixed(buffer, fields.type, at + 16);
  at = writeLengthPrefixed(buffer, fields.actor, at);
  if (fields.sessionId === null) {
    at = buffer.writeUInt8(0, at);
  } else {
    at = buffer.writeUInt8(1, at);
    at = writeLengthPrefixed(buffer, fields.sessionId, at);
  }
  buffer.set(fields.payloadCommit, at);
  buffer.set(fields.prevHash, at + 32);
  return sha256(preimage(buffer, at + 64));
}
