import { isAscii, isUtf8 } from 'node:buffer';
import { utf16Length, type Utf8Text } from '../../../src-preload/rpc';

/**
 * A piece of output read as bytes, kept as valid UTF-8 of whole characters: what a pty gives is forwarded to the
 * renderer's binary frames as it is, and decoded only where text is needed (`text`, once, on first use).
 *
 * `bytes` always owns its whole ArrayBuffer (exact size, offset 0), so handing it to another thread copies only it.
 */
export class Utf8Chunk implements Utf8Text {
  private decoded: string | undefined;

  private constructor(
    readonly bytes: Uint8Array<ArrayBuffer>,
    readonly chars: number,
  ) {}

  /**
   * Takes `bytes` (which must end on a character boundary; see completeLength) without copying when they own their
   * ArrayBuffer. Bytes that are not valid UTF-8 (a binary file sent to the terminal) are replaced by the UTF-8 of
   * their decoding (U+FFFD for each bad sequence), so every reader, the event log and the scrollback get the same text.
   */
  static fromBytes(bytes: Uint8Array): Utf8Chunk {
    // Native checks (SIMD), cheap even over a whole flood (docs/performance.md#event-log); almost all output is ASCII.
    if (isAscii(bytes)) return new Utf8Chunk(owned(bytes), bytes.length);
    if (isUtf8(bytes)) return new Utf8Chunk(owned(bytes), utf16Length(bytes));
    // A decoder's output is well-formed, so it encodes back to exactly the bytes that decode to it.
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    const chunk = new Utf8Chunk(owned(Buffer.from(text, 'utf8')), text.length);
    chunk.decoded = text;
    return chunk;
  }

  get text(): string {
    this.decoded ??= Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('utf8');
    return this.decoded;
  }
}

/** The same bytes in an ArrayBuffer of their own (copied only when they are a view into a larger one). */
function owned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.byteOffset === 0 && bytes.buffer instanceof ArrayBuffer && bytes.byteLength === bytes.buffer.byteLength) {
    return bytes as Uint8Array<ArrayBuffer>;
  }
  return new Uint8Array(bytes);
}

/**
 * How many of `bytes` end on a character boundary: all of them, less an incomplete UTF-8 sequence at the end (at
 * most three bytes), which belongs with the next read. Bytes that cannot start such a sequence are left in.
 */
export function completeLength(bytes: Uint8Array): number {
  const end = bytes.length;
  // Walk back over at most three continuation bytes to the lead byte of the last sequence.
  for (let back = 1; back <= Math.min(4, end); back++) {
    const byte = bytes[end - back];
    if ((byte & 0xc0) === 0x80) continue; // continuation: keep looking for the lead
    const needed = byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 1;
    return needed > back ? end - back : end;
  }
  return end;
}
