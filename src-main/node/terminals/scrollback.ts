/** Characters of output each terminal keeps for replay when a card is reopened. */
export const SCROLLBACK_CHARS = 2 * 1024 * 1024;

/**
 * The most recent output of a terminal: exactly its last `limit` characters (UTF-16 code units), so a reopened card
 * can replay it. What it holds depends only on the text received, never on how that text was cut into chunks or on
 * when it was read: the event log stores output in coalesced rows and rebuilds this same text from them.
 */
export class Scrollback {
  private chunks: string[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  append(data: string): void {
    if (data.length === 0) return;
    this.chunks.push(data);
    this.size += data.length;
    // Whole chunks that lie entirely before the last `limit` characters can go.
    while (this.chunks.length > 1 && this.size - this.chunks[0].length >= this.limit) {
      this.size -= this.chunks.shift()!.length;
    }
    if (this.size > this.limit) {
      // The oldest chunk straddles the boundary: keep its tail.
      this.chunks[0] = this.chunks[0].slice(this.size - this.limit);
      this.size = this.limit;
    }
  }

  snapshot(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }
}
