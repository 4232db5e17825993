import type { Disposable } from '../../../src-preload/rpc';

/**
 * An event whose listeners do work the firer waits for (a session closing stops its terminals, runs and harness
 * sessions before the close is answered). Every listener runs even if another fails; the first failure is rethrown
 * once all have settled, so the caller hears of it and nothing is left half-stopped.
 */
export class AsyncEmitter<T> {
  private readonly listeners = new Set<(value: T) => Promise<void> | void>();

  readonly event = (listener: (value: T) => Promise<void> | void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  async fire(value: T): Promise<void> {
    const results = await Promise.allSettled([...this.listeners].map(async (listener) => listener(value)));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  dispose(): void {
    this.listeners.clear();
  }
}
