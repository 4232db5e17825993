import { isAscii } from 'node:buffer';
import type { SecretScrubber } from '../vault/secretScrubber';

/** An output row's data as stored: the scrubbed text's UTF-8 (the `data` blob) and its UTF-16 length (`data_chars`). */
export interface StoredData {
  blob: Buffer;
  chars: number;
}

/**
 * Scrubs a row's output and encodes it for the event_log table, on whichever thread writes the row. Output that
 * came as UTF-8 bytes is stored as those very bytes when nothing was scrubbed (almost always); it is decoded for
 * scrubbing only when it is not ASCII or holds something that may be a secret.
 */
export function storedData(data: string | Uint8Array | null, scrubber: SecretScrubber): StoredData | null {
  if (data === null) return null;
  if (typeof data === 'string') {
    const text = scrubber.scrubText(data);
    return { blob: Buffer.from(text, 'utf8'), chars: text.length };
  }
  // A Uint8Array once it crossed to the writer's thread (Buffer's prototype does not survive the copy).
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // Nearly all output is ASCII with nothing to scrub: then it is checked as bytes and stored as they are, never
  // decoded (decoding, and collecting the strings afterwards, is CPU spent on every chunk:
  // docs/performance.md#event-log).
  if (isAscii(bytes) && scrubber.isCleanAscii(bytes)) return { blob: bytes, chars: bytes.length };
  const text = bytes.toString('utf8');
  const scrubbed = scrubber.scrubText(text);
  if (scrubbed === text) return { blob: bytes, chars: text.length };
  return { blob: Buffer.from(scrubbed, 'utf8'), chars: scrubbed.length };
}
