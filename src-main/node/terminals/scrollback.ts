import type { Utf8Text } from '../../../src-preload/rpc';

/** Characters of output each terminal keeps for replay when a card is reopened. */
export const SCROLLBACK_CHARS = 2 * 1024 * 1024;

/**
 * The most recent output of a terminal: exactly its last `limit` characters (UTF-16 code units), so a reopened card
 * can replay it. What it holds depends only on the text received, never on how that text was cut into chunks or on
 * when it was read: the event log stores output in coalesced rows and rebuilds this same text from them.
 *
 * Live output arrives as UTF-8 (Utf8Text) and stays so until a snapshot is asked for (a card reopened): during a
 * flood no chunk is decoded here. Whole chunks that lie entirely before the last `limit` characters are dropped as
 * they go out of range; the oldest kept one is cut to size when a snapshot decodes them.
 */
export class Scrollback {
  private chunks: (string | Utf8Text)[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  append(data: string | Utf8Text): void {
    const length = typeof data === 'string' ? data.length : data.chars;
    if (length === 0) return;
    this.chunks.push(data);
    this.size += length;
    while (this.chunks.length > 1 && this.size - lengthOf(this.chunks[0]) >= this.limit) {
      this.size -= lengthOf(this.chunks.shift()!);
    }
  }

  snapshot(): string {
    if (this.chunks.length === 0) return '';
    const texts = this.chunks.map((chunk) => (typeof chunk === 'string' ? chunk : chunk.text));
    let text = texts.length === 1 ? texts[0] : texts.join('');
    // The oldest chunk may straddle the boundary: keep its tail.
    if (text.length > this.limit) text = text.slice(text.length - this.limit);
    this.chunks = [text];
    this.size = text.length;
    return text;
  }
}

function lengthOf(chunk: string | Utf8Text): number {
  return typeof chunk === 'string' ? chunk.length : chunk.chars;
}
