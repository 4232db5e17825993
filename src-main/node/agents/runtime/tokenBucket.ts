/**
 * Backpressure for agent output (event protocol §4: "token-bucket throttling"): an agent may send `burst` units at
 * once and `ratePerSecond` on average. `take` answers how long the caller must wait before the units may pass;
 * the runtime holds the agent's output call for that long, so a flooding agent is slowed down, not the UI.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(ratePerSecond > 0) || !(burst > 0)) throw new RangeError('a token bucket needs a positive rate and burst');
    this.tokens = burst;
    this.updatedAt = now();
  }

  private refill(): void {
    const at = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((at - this.updatedAt) / 1000) * this.ratePerSecond);
    this.updatedAt = at;
  }

  /**
   * Takes `units` (a request larger than the burst is allowed through once the bucket is full, so one big chunk
   * is delayed, never refused). Returns the milliseconds to wait before sending; 0 when it may go now.
   */
  take(units: number): number {
    this.refill();
    this.tokens -= units;
    if (this.tokens >= 0) return 0;
    return (-this.tokens / this.ratePerSecond) * 1000;
  }
}
