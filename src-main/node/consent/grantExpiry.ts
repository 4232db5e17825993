import { MAX_TIMER_MS, type Clock, type ClockTimer } from './clock';

/**
 * One timer per live grant that says when it is due to expire. The clock decides, not the timer: a timer that
 * fires early (waits longer than Node's setTimeout allows are cut to MAX_TIMER_MS) is re-armed, and `onDue` runs
 * only once the clock has reached the grant's end.
 */
export class GrantExpiry {
  private readonly timers = new Map<string, ClockTimer>();

  constructor(
    private readonly clock: Clock,
    private readonly onDue: (grantId: string) => void,
  ) {}

  arm(grantId: string, expiresAt: number): void {
    this.disarm(grantId);
    const delay = expiresAt - this.clock.now();
    const timer = this.clock.setTimeout(() => {
      if (this.timers.get(grantId) !== timer) return;
      this.timers.delete(grantId);
      if (this.clock.now() < expiresAt) return this.arm(grantId, expiresAt);
      this.onDue(grantId);
    }, Math.min(Math.max(0, delay), MAX_TIMER_MS));
    this.timers.set(grantId, timer);
  }

  disarm(grantId: string): void {
    const timer = this.timers.get(grantId);
    if (timer === undefined) return;
    this.clock.clearTimeout(timer);
    this.timers.delete(grantId);
  }

  dispose(): void {
    for (const timer of this.timers.values()) this.clock.clearTimeout(timer);
    this.timers.clear();
  }
}
