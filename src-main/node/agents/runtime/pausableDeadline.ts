/**
 * A turn's wall-clock deadline that counts only while the agent runs: paused while it is suspended or waits for the
 * user, it goes on with the time left when resumed. `onExpired` fires once the running time adds up to `limitMs`.
 * Ended (the agent stopped), it never runs again.
 */
export class PausableDeadline {
  private timer: NodeJS.Timeout | undefined;
  private remainingMs: number;
  private runningSince = 0;
  private ended = false;

  constructor(
    limitMs: number,
    private readonly onExpired: () => void,
  ) {
    this.remainingMs = limitMs;
  }

  /** Counts on from where it paused; nothing when it already counts or has ended. */
  resume(): void {
    if (this.timer || this.ended) return;
    this.runningSince = Date.now();
    this.timer = setTimeout(this.onExpired, Math.max(0, this.remainingMs));
  }

  /** Stops counting, keeping the time left; nothing when it is not counting. */
  pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remainingMs -= Date.now() - this.runningSince;
  }

  /** Stops counting for good. */
  end(): void {
    this.ended = true;
    this.pause();
  }
}
