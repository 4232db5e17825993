import type { Clock, ClockTimer } from '../../src-main/node/consent/clock';

/** A clock that moves only when told to, firing due timers in order as it passes them. */
export class FakeClock implements Clock {
  private readonly timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;

  constructor(private time = 1_800_000_000_000) {}

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): ClockTimer {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(timer: ClockTimer): void {
    this.timers.delete(timer as number);
  }

  /** Moves time without running timers, as a blocked event loop would. */
  jump(ms: number): void {
    this.time += ms;
  }

  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      let next: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].at;
      next[1].callback();
    }
    this.time = target;
  }
}
