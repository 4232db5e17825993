import { setTimeout as sleep } from 'node:timers/promises';
import { CheckpointNotFoundError, type CheckpointRecord, type CheckpointRef, type CheckpointStore } from './checkpointStore';

/** How often the store is looked at: the answer may come from this process, another window, or the omni CLI. */
const DEFAULT_POLL_MS = 100;

/**
 * Waits until the checkpoint is answered (or already was) and returns its record, with the answer. The store is read
 * rather than listened to, because the answer is a committed row that any process sharing the database can write.
 * Aborting `signal` ends the wait with its reason (an AbortError by default); the checkpoint stays pending.
 */
export async function waitForCheckpointAnswer(store: CheckpointStore, ref: CheckpointRef, options: { signal?: AbortSignal; pollMs?: number } = {}): Promise<CheckpointRecord> {
  for (;;) {
    options.signal?.throwIfAborted();
    const record = store.get(ref);
    if (!record) throw new CheckpointNotFoundError(ref);
    if (record.status !== 'pending') return record;
    await sleep(options.pollMs ?? DEFAULT_POLL_MS, undefined, { signal: options.signal });
  }
}
