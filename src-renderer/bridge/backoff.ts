/** Reconnect delays: quick at first (a restarting host is usually back within a second), then capped. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly initialMs = 250,
    private readonly maxMs = 5000,
  ) {}

  /** The next delay, with ±20% jitter so several windows do not reconnect in lock step. */
  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * 2 ** this.attempt);
    this.attempt++;
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  reset(): void {
    this.attempt = 0;
  }
}
