import type { OpenSnapshotEngine, SnapshotEngine } from './snapshotEngine';

/**
 * The snapshot engine of each workspace, opened once (and again after an opening that failed), and the order of the
 * work on each workspace's files: snapshots, rejects and restores of one workspace run one at a time, in the order
 * asked, so a snapshot never sees a half-restored file.
 */
export class WorkspaceEngines {
  private readonly engines = new Map<string, Promise<SnapshotEngine>>();
  /** Per workspace: the tail of the work on its files, which the next waits for. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly open: OpenSnapshotEngine) {}

  /** The workspace's store, opened once; a failed open is tried again next time (git installed since, say). */
  engine(workspace: string): Promise<SnapshotEngine> {
    let opened = this.engines.get(workspace);
    if (!opened) {
      opened = this.open(workspace);
      this.engines.set(workspace, opened);
      const mine = opened;
      mine.catch(() => {
        if (this.engines.get(workspace) === mine) this.engines.delete(workspace);
      });
    }
    return opened;
  }

  /** Runs `work` after the workspace's earlier work on its files, failed or not. */
  serially<T>(workspace: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(workspace) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(workspace, tail);
    void tail.then(() => {
      if (this.queues.get(workspace) === tail) this.queues.delete(workspace);
    });
    return result;
  }

  /** Resolves once the work queued on every workspace and the engines' background work are done. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.queues.values()]);
    await Promise.allSettled([...this.engines.values()].map((opening) => opening.then((engine) => engine.idle())));
  }
}
