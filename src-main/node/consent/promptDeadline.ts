import type { Clock, ClockTimer } from './clock';

/**
 * The time a consent prompt has to be answered, counted only while someone can see it. A prompt of a session no
 * page watches (the window closed, `omni serve` with no page open) is never denied for it: the countdown pauses
 * with what it had left and goes on from there when a page watches the session again.
 */
export class PromptDeadline {
  private remainingMs: number;
  /** When the countdown last started running; null while paused. */
  private runningSince: number | null = null;
  private timer: ClockTimer | undefined;
  private ended = false;

  constructor(
    private readonly clock: Clock,
    budgetMs: number,
    private readonly onExpire: () => void,
  ) {
    this.remainingMs = Math.max(0, budgetMs);
  }

  /** When the prompt is denied if nobody answers, or null while the countdown is paused. */
  get deadline(): number | null {
    return this.runningSince === null ? null : this.runningSince + this.remainingMs;
  }

  /** What is left of the budget now (it shrinks only while running). */
  remaining(): number {
    if (this.runningSince === null) return this.remainingMs;
    return Math.max(0, this.remainingMs - (this.clock.now() - this.runningSince));
  }

  /** Someone watches: the countdown runs. Idempotent. */
  run(): void {
    if (this.ended || this.runningSince !== null) return;
    this.runningSince = this.clock.now();
    this.timer = this.clock.setTimeout(() => this.fire(), this.remainingMs);
  }

  /** Nobody watches: the countdown stops with what it has left. Idempotent. */
  pause(): void {
    if (this.ended || this.runningSince === null) return;
    this.remainingMs = this.remaining();
    this.runningSince = null;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The prompt is settled: no more expiry. */
  dispose(): void {
    this.pause();
    this.ended = true;
  }

  private fire(): void {
    if (this.ended || this.runningSince === null) return;
    // A timer may fire early (the clock caps long waits): re-arm for what is really left.
    const left = this.remaining();
    if (left > 0) {
      this.timer = this.clock.setTimeout(() => this.fire(), left);
      return;
    }
    this.ended = true;
    this.runningSince = null;
    this.onExpire();
  }
}
