export interface Disposable {
  dispose(): void;
}

/** Owns other disposables and disposes them once, newest first, so every port, pty and socket has an owner. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  /** `onError`: where an item's failure to dispose goes; without it, dispose throws once every item is disposed. */
  constructor(private readonly onError?: (error: unknown) => void) {}

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Disposes every item even if some throw (one failing owner must not keep the others alive), then reports what
   * failed (to `onError`, else by throwing it), so a failure reaches whoever owns this store instead of vanishing.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (error) {
        if (this.onError) this.onError(error);
        else errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed`);
  }
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** A tiny typed event emitter in the VS Code style: `onDidX(listener)` returns a Disposable. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  fire(value: T): void {
    // Hot paths (every ledger entry, every terminal chunk) fire to no listener or to one: no snapshot array then.
    // With more, a snapshot, so a listener added or removed while firing does not change who hears this value.
    const count = this.listeners.size;
    if (count === 0) return;
    if (count === 1) {
      for (const listener of this.listeners) return listener(value);
    }
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
