import { KeyedQueue } from '../base/keyedQueue';
import type { OpenSnapshotEngine, SnapshotEngine } from './snapshotEngine';

/**
 * The snapshot engine of each workspace, opened once (and again after an opening that failed), and the order of the
 * work on each workspace's files: snapshots, rejects and restores of one workspace run one at a time, in the order
 * asked, so a snapshot never sees a half-restored file.
 */
export class WorkspaceEngines {
  private readonly engines = new Map<string, Promise<SnapshotEngine>>();
  /** The work on each workspace's files, one task at a time. */
  private readonly queue = new KeyedQueue();

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
    return this.queue.run(workspace, work);
  }

  /** Resolves once the work queued on every workspace and the engines' background work are done. */
  async settled(): Promise<void> {
    await this.queue.settled();
    await Promise.allSettled([...this.engines.values()].map((opening) => opening.then((engine) => engine.idle())));
  }
}
