/**
 * Work run one task at a time per key, in the order asked: each task starts once the key's earlier tasks have
 * settled, failed or not. Tasks of different keys do not wait for each other. A key with nothing queued is forgotten.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.tails.values()]);
  }
}
