import type { SecretScrubber } from '../vault/secretScrubber';

/** An output row's data as stored: the scrubbed text's UTF-8 (the `data` blob) and its UTF-16 length (`data_chars`). */
export interface StoredData {
  blob: Buffer;
  chars: number;
}

/**
 * Scrubs a row's output and encodes it for the event_log table, on whichever thread writes the row. Output that
 * came as UTF-8 bytes is decoded for scrubbing and, when nothing was scrubbed (almost always), stored as those very
 * bytes instead of being encoded again.
 */
export function storedData(data: string | Uint8Array | null, scrubber: SecretScrubber): StoredData | null {
  if (data === null) return null;
  if (typeof data === 'string') {
    const text = scrubber.scrubText(data);
    return { blob: Buffer.from(text, 'utf8'), chars: text.length };
  }
  // A Uint8Array once it crossed to the writer's thread (Buffer's prototype does not survive the copy).
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const text = bytes.toString('utf8');
  const scrubbed = scrubber.scrubText(text);
  if (scrubbed === text) return { blob: bytes, chars: text.length };
  return { blob: Buffer.from(scrubbed, 'utf8'), chars: scrubbed.length };
}
