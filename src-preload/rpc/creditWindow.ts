/**
 * Producer-side flow control for one stream. The consumer grants `window` units up front and returns credit as
 * it finishes with items. Above the high watermark (the whole window outstanding) the producer is told to pause;
 * it is told to resume once outstanding work falls to the low watermark. Items pushed while paused are queued,
 * up to `maxQueued` units, so a well-behaved producer never loses data and a runaway one is cut off.
 */
export class CreditWindow<T> {
  private outstanding = 0;
  private paused = false;
  private readonly queue: { item: T; weight: number }[] = [];
  private queuedWeight = 0;
  private drained: (() => void) | undefined;

  constructor(
    private readonly window: number,
    private readonly lowWater: number,
    private readonly maxQueued: number,
    private readonly deliver: (item: T) => void,
    private readonly onPause: () => void,
    private readonly onResume: () => void,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  get unacknowledged(): number {
    return this.outstanding;
  }

  /** Runs `fn` once everything queued has been delivered (at once if nothing is queued). */
  whenDrained(fn: () => void): void {
    if (this.queue.length === 0) fn();
    else this.drained = fn;
  }

  /** Returns false when the queue limit is exceeded: the stream must then be ended with OVERFLOW. */
  push(item: T, weight: number): boolean {
    if (this.paused || this.queue.length > 0) {
      this.queue.push({ item, weight });
      this.queuedWeight += weight;
      return this.queuedWeight <= this.maxQueued;
    }
    this.send(item, weight);
    return true;
  }

  grant(credit: number): void {
    this.outstanding = Math.max(0, this.outstanding - credit);
    while (this.queue.length > 0 && this.outstanding < this.window) {
      const next = this.queue.shift()!;
      this.queuedWeight -= next.weight;
      this.send(next.item, next.weight);
    }
    if (this.queue.length === 0 && this.drained) {
      const fn = this.drained;
      this.drained = undefined;
      fn();
    }
    if (this.paused && this.queue.length === 0 && this.outstanding <= this.lowWater) {
      this.paused = false;
      this.onResume();
    }
  }

  private send(item: T, weight: number): void {
    this.outstanding += weight;
    this.deliver(item);
    if (!this.paused && this.outstanding >= this.window) {
      this.paused = true;
      this.onPause();
    }
  }
}
