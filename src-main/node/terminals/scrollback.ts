/** The most recent output of a terminal, bounded in characters, so a reopened card can replay it. */
export class Scrollback {
  private chunks: string[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  append(data: string): void {
    this.chunks.push(data);
    this.size += data.length;
    while (this.size > this.limit && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
    }
    if (this.size > this.limit) {
      // One chunk larger than the limit: keep its tail.
      this.chunks[0] = this.chunks[0].slice(this.size - this.limit);
      this.size = this.limit;
    }
  }

  snapshot(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }
}
