/**
 * The one binary frame of the protocol: a stream item whose contract declares a byte form (terminal output).
 *
 *   byte 0      BINARY_ITEM (0x01)
 *   bytes 1–4   the subscription id, u32 big-endian
 *   bytes 5–    the item's bytes, as its stream's `bytes` codec wrote them (UTF-8 text for terminal output)
 *
 * Why: terminal output is most of what crosses the bridge. As JSON every escape character grows to six
 * (`\u001b`), and the page spent its time in JSON.parse and frame validation instead of in xterm; as bytes it is
 * one native UTF-8 decode. Only the host sends binary frames; the host refuses them from a client (BAD_FRAME).
 */
export const BINARY_ITEM = 0x01;
export const BINARY_HEADER_BYTES = 5;

/** Both Node and browsers have TextEncoder/TextDecoder; the bridge layer compiles without DOM or Node types. */
interface Utf8Encoder {
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
interface Utf8Decoder {
  decode(input: Uint8Array): string;
}
const codecs = globalThis as unknown as { TextEncoder: new () => Utf8Encoder; TextDecoder: new (label: string) => Utf8Decoder };
const encoder = new codecs.TextEncoder();
const decoder = new codecs.TextDecoder('utf-8');

/**
 * Where items are encoded before being copied out at their exact size. Kept between calls: a fresh buffer of three
 * bytes per character (zero-filled, off the JavaScript heap) for every 256 KB terminal chunk cost the host
 * measurable time in allocation and in the garbage collections the external memory triggered.
 */
let scratch = new Uint8Array(0);
/** Beyond this the buffer is not kept: a rare huge item should not stay allocated for the rest of the process's life. */
const MAX_KEPT_SCRATCH = 4 * 1024 * 1024;

/** Frames a string item as UTF-8 after the header, in one exact-size buffer (a MessagePort copies whole buffers). */
export function encodeTextItem(id: number, text: string): Uint8Array<ArrayBuffer> {
  // UTF-8 needs at most three bytes per UTF-16 code unit.
  const needed = BINARY_HEADER_BYTES + text.length * 3;
  let buffer = scratch;
  if (buffer.length < needed) {
    buffer = new Uint8Array(Math.max(needed, Math.min(2 * buffer.length, MAX_KEPT_SCRATCH)));
    if (buffer.length <= MAX_KEPT_SCRATCH) scratch = buffer;
  }
  const { written } = encoder.encodeInto(text, buffer.subarray(BINARY_HEADER_BYTES));
  const frame = buffer.slice(0, BINARY_HEADER_BYTES + written);
  frame[0] = BINARY_ITEM;
  new DataView(frame.buffer).setUint32(1, id);
  return frame;
}

/**
 * Text that is already UTF-8: a producer that read it as bytes (a pty) hands it over as they are, so it is framed
 * without being decoded and encoded again. `bytes` must be valid UTF-8 and whole characters, `chars` the UTF-16
 * length of the text they encode (what the text's weight is), `text` that text (decoded when first asked for).
 */
export interface Utf8Text {
  readonly bytes: Uint8Array;
  readonly chars: number;
  readonly text: string;
}

/** Frames an item that is already UTF-8 (see Utf8Text): one copy of its bytes after the header, nothing decoded. */
export function encodeUtf8Item(id: number, bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const frame = new Uint8Array(BINARY_HEADER_BYTES + bytes.length);
  frame.set(bytes, BINARY_HEADER_BYTES);
  frame[0] = BINARY_ITEM;
  new DataView(frame.buffer).setUint32(1, id);
  return frame;
}

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * The UTF-16 length of the text `bytes` encode: what `decodeText(bytes).length` would be, without building the
 * string. The host weighs a text item by its string's length, so a consumer that keeps the bytes (xterm parses UTF-8
 * itself) returns exactly that credit. Every byte but a continuation byte (10xxxxxx) starts a character; a four-byte
 * one (11110xxx) is a surrogate pair in UTF-16. Exact for what encodeTextItem writes (always valid UTF-8).
 */
export function utf16Length(bytes: Uint8Array): number {
  const end = bytes.length;
  let length = end;
  // Mostly ASCII: look at four bytes at a time (aligned words) and only at those with a high bit set.
  const head = Math.min(end, (4 - (bytes.byteOffset % 4)) % 4);
  const wordCount = (end - head) >>> 2;
  for (let i = 0; i < head; i++) length += utf16Adjustment(bytes[i]);
  if (wordCount > 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + head, wordCount);
    for (let w = 0; w < wordCount; w++) {
      if ((words[w] & 0x8080_8080) === 0) continue;
      const at = head + w * 4;
      length += utf16Adjustment(bytes[at]) + utf16Adjustment(bytes[at + 1]) + utf16Adjustment(bytes[at + 2]) + utf16Adjustment(bytes[at + 3]);
    }
  }
  for (let i = head + wordCount * 4; i < end; i++) length += utf16Adjustment(bytes[i]);
  return length;
}

/** -1 for a continuation byte (no character of its own), +1 for a four-byte lead (two UTF-16 units), else 0. */
function utf16Adjustment(byte: number): number {
  if (byte < 0x80) return 0;
  if (byte < 0xc0) return -1;
  return byte >= 0xf0 ? 1 : 0;
}

export interface BinaryItem {
  id: number;
  bytes: Uint8Array;
}

/** Reads the header of a binary frame (a Uint8Array or an ArrayBuffer); undefined if it is not one of ours. */
export function readBinaryItem(raw: unknown): BinaryItem | undefined {
  const frame = raw instanceof Uint8Array ? raw : raw instanceof ArrayBuffer ? new Uint8Array(raw) : undefined;
  if (!frame || frame.length < BINARY_HEADER_BYTES || frame[0] !== BINARY_ITEM) return undefined;
  const id = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(1);
  return { id, bytes: frame.subarray(BINARY_HEADER_BYTES) };
}

/** Subscription ids the binary header can carry; larger ids (never seen in practice) fall back to JSON frames. */
export const MAX_BINARY_ID = 0xffff_ffff;
