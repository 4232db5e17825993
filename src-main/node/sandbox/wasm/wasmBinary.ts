/**
 * Just enough of the WebAssembly binary format to read a module's sections, imports and memories and to rewrite
 * limits in place (https://webassembly.github.io/spec/core/binary/). Integers are unsigned LEB128.
 */

export class WasmFormatError extends Error {
  constructor(message: string) {
    super(`not a valid WebAssembly module: ${message}`);
    this.name = 'WasmFormatError';
  }
}

export class ByteReader {
  pos: number;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  byte(): number {
    if (this.pos >= this.end) throw new WasmFormatError(`unexpected end at byte ${this.pos}`);
    return this.bytes[this.pos++];
  }

  /** An unsigned LEB128 of at most 32 bits, returned as a number (up to 2^32 - 1). */
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      if (shift === 28 && b > 0x0f) throw new WasmFormatError(`LEB128 integer too large at byte ${this.pos - 1}`);
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  }

  /** An unsigned LEB128 of up to 64 bits (memory64 limits), returned as a bigint. */
  u64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.byte();
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 63n) throw new WasmFormatError(`LEB128 integer too large at byte ${this.pos - 1}`);
    }
  }

  name(): string {
    const length = this.u32();
    if (this.pos + length > this.end) throw new WasmFormatError(`a name runs past its section at byte ${this.pos}`);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(this.pos, this.pos + length));
    this.pos += length;
    return text;
  }
}

export function encodeU32(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let b = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) b |= 0x80;
    out.push(b);
  } while (rest !== 0);
  return out;
}

export interface Section {
  id: number;
  /** Where the section's id byte is. */
  start: number;
  /** Its payload, after the size. */
  payloadStart: number;
  end: number;
}

const MAGIC_AND_VERSION = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

export function readSections(bytes: Uint8Array): Section[] {
  if (bytes.length < 8 || MAGIC_AND_VERSION.some((b, i) => bytes[i] !== b)) {
    throw new WasmFormatError('it does not start with the WebAssembly magic number and version 1');
  }
  const reader = new ByteReader(bytes, 8);
  const sections: Section[] = [];
  while (!reader.done) {
    const start = reader.pos;
    const id = reader.byte();
    const size = reader.u32();
    const payloadStart = reader.pos;
    const end = payloadStart + size;
    if (end > bytes.length) throw new WasmFormatError(`section ${id} at byte ${start} runs past the end of the module`);
    sections.push({ id, start, payloadStart, end });
    reader.pos = end;
  }
  return sections;
}

export const SECTION = { type: 1, import: 2, function: 3, memory: 5, export: 7 } as const;

/** Memory limits as read: `flags` bit 0 = has maximum, bit 1 = shared, bit 2 = 64-bit. */
export interface Limits {
  flags: number;
  min: bigint;
  max: bigint | null;
  /** Where the limits' bytes are in the module, so they can be replaced. */
  start: number;
  end: number;
}

export function readLimits(reader: ByteReader): Limits {
  const start = reader.pos;
  const flags = reader.byte();
  if (flags > 0x07) throw new WasmFormatError(`unknown limits flags 0x${flags.toString(16)} at byte ${start}`);
  const is64 = (flags & 0x04) !== 0;
  const min = is64 ? reader.u64() : BigInt(reader.u32());
  const max = (flags & 0x01) !== 0 ? (is64 ? reader.u64() : BigInt(reader.u32())) : null;
  return { flags, min, max, start, end: reader.pos };
}

/** The limits' bytes for a 32-bit memory (keeping the shared flag) with min and max pages. */
export function encodeLimits32(flags: number, min: number, max: number): number[] {
  return [(flags & 0x02) | 0x01, ...encodeU32(min), ...encodeU32(max)];
}

/**
 * Replaces byte ranges of `bytes` inside one section and rewrites that section's size. The ranges must lie inside the
 * section's payload and not overlap.
 */
export function spliceSection(bytes: Uint8Array, section: Section, edits: { start: number; end: number; bytes: number[] }[]): Uint8Array {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const payload: number[] = [];
  let at = section.payloadStart;
  for (const edit of sorted) {
    payload.push(...bytes.subarray(at, edit.start), ...edit.bytes);
    at = edit.end;
  }
  payload.push(...bytes.subarray(at, section.end));
  const out = new Uint8Array(section.start + 1 + encodeU32(payload.length).length + payload.length + (bytes.length - section.end));
  out.set(bytes.subarray(0, section.start), 0);
  let pos = section.start;
  out[pos++] = section.id;
  const size = encodeU32(payload.length);
  out.set(size, pos);
  pos += size.length;
  out.set(payload, pos);
  pos += payload.length;
  out.set(bytes.subarray(section.end), pos);
  return out;
}
