/** Something that lets go of what it holds; may take its time (a process to end, a write to finish). */
export interface AsyncDisposable {
  dispose(): void | Promise<void>;
}

/**
 * The host's one teardown path: owns named disposables and disposes them once, newest first, each awaited before
 * the next, so what was composed from another part stops before that part does. A failure is reported with the
 * part's name and the rest still stop: one broken part must not keep the others (or the home's lock) held.
 */
export class AsyncDisposableStore implements AsyncDisposable {
  private readonly items: { name: string; item: AsyncDisposable }[] = [];
  private disposing: Promise<void> | undefined;

  constructor(private readonly onError: (name: string, error: unknown) => void) {}

  /** Registers `item` under `name` (used in error reports) and returns it. */
  add<T extends AsyncDisposable>(name: string, item: T): T {
    if (this.disposing) throw new Error(`cannot add "${name}": the store is already disposed`);
    this.items.push({ name, item });
    return item;
  }

  dispose(): Promise<void> {
    this.disposing ??= this.disposeAll();
    return this.disposing;
  }

  private async disposeAll(): Promise<void> {
    for (const { name, item } of this.items.splice(0).reverse()) {
      try {
        await item.dispose();
      } catch (error) {
        this.onError(name, error);
      }
    }
  }
}
