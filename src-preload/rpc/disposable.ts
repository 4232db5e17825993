export interface Disposable {
  dispose(): void;
}

/** Owns other disposables and disposes them once, newest first, so every port, pty and socket has an owner. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

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

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch {
        // One failing owner must not keep the others alive.
      }
    }
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
