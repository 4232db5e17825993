/**
 * Time as the consent engine sees it. Injected so that tests drive expiry with a fake clock (a grant allowed at
 * 59 s of 60 and gone at 61 s) instead of sleeping.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer): void;
}

/** Whatever the clock hands back; only ever passed back to its own clearTimeout. */
export type ClockTimer = unknown;

/** Node's setTimeout takes at most 2^31-1 ms; longer waits are re-armed by the caller when they fire early. */
export const MAX_TIMER_MS = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    // An expiry timer must never keep the process alive on its own.
    timer.unref?.();
    return timer;
  },
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};
