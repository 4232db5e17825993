import type { RunItem } from '../../../src-preload/contract/exec';
import { Emitter, type Disposable } from '../../../src-preload/rpc';
import type { Database } from '../store/database';

export interface AppendedItem {
  runId: string;
  item: RunItem;
}

interface RunCursor {
  /** The seq the next item of the run gets. */
  nextSeq: number;
  /** Output bytes appended since the last flush, added to the run's output_bytes with its items. */
  unflushedBytes: number;
  truncated: boolean;
  dirty: boolean;
}

/** A flush waits no longer than this many characters of output (a flooding run is written in pieces this big). */
const FLUSH_CHARS = 4 * 1024 * 1024;

/**
 * Numbers and writes the items of every run. `append` assigns the next seq of the run at once (so seqs are gapless
 * and in call order) and queues the item; queued items of all runs are written in one transaction at the end of the
 * event-loop turn, or sooner when FLUSH_CHARS are waiting, together with each run's last_seq and output size.
 * Listeners hear an item only after it has committed, so a replay from the table followed by live items neither
 * misses nor repeats one. A host killed mid-turn loses at most that turn's items, never a seq in the middle.
 */
export class RunItemWriter implements Disposable {
  private readonly appended = new Emitter<AppendedItem>();
  readonly onDidAppend = this.appended.event;
  private readonly cursors = new Map<string, RunCursor>();
  private pending: AppendedItem[] = [];
  private pendingChars = 0;
  private scheduled: NodeJS.Immediate | undefined;
  private readonly insertItem;
  private readonly updateRun;
  private readonly selectLastSeq;

  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.insertItem = db.prepare<[string, number, number, string, string, string | null]>(
      'INSERT INTO exec_run_items (run_id, seq, ts, kind, data, detail) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.updateRun = db.prepare<[number, number, number, string]>(
      'UPDATE exec_runs SET last_seq = ?, output_bytes = output_bytes + ?, truncated = max(truncated, ?) WHERE run_id = ?',
    );
    this.selectLastSeq = db.prepare<[string], { last_seq: number }>('SELECT last_seq FROM exec_runs WHERE run_id = ?');
  }

  private cursor(runId: string): RunCursor {
    let cursor = this.cursors.get(runId);
    if (!cursor) {
      const row = this.selectLastSeq.get(runId);
      if (!row) throw new Error(`no run ${runId} to append items to`);
      cursor = { nextSeq: row.last_seq + 1, unflushedBytes: 0, truncated: false, dirty: false };
      this.cursors.set(runId, cursor);
    }
    return cursor;
  }

  /** Queues one item; `outputBytes` is what it adds to the run's output size. Returns its seq. */
  append(runId: string, kind: RunItem['kind'], data: string, detail?: Record<string, unknown>, outputBytes = 0): number {
    const cursor = this.cursor(runId);
    const item: RunItem = { seq: cursor.nextSeq++, ts: this.now(), kind, data };
    if (detail) item.detail = detail;
    cursor.unflushedBytes += outputBytes;
    cursor.dirty = true;
    this.pending.push({ runId, item });
    this.pendingChars += data.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flushOrReport();
    else this.scheduled ??= setImmediate(() => this.flushOrReport());
    return item.seq;
  }

  /** The run's output was cut at its max_output_bytes: recorded on the run with its next flush. */
  markTruncated(runId: string): void {
    const cursor = this.cursor(runId);
    cursor.truncated = true;
    cursor.dirty = true;
    this.scheduled ??= setImmediate(() => this.flushOrReport());
  }

  /** The last seq given out for the run (written or queued). */
  lastSeq(runId: string): number {
    return this.cursor(runId).nextSeq - 1;
  }

  private flushOrReport(): void {
    try {
      this.flush();
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * Writes every queued item now, and runs `alsoInTransaction` (a run's status change, say) in the same
   * transaction, so a run is never seen ended with items still missing.
   */
  flush(alsoInTransaction?: () => void): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const batch = this.pending;
    const dirty = [...this.cursors].filter(([, cursor]) => cursor.dirty);
    if (batch.length === 0 && dirty.length === 0) {
      if (alsoInTransaction) this.db.transaction(alsoInTransaction)();
      return;
    }
    this.db.transaction(() => {
      for (const { runId, item } of batch) {
        this.insertItem.run(runId, item.seq, item.ts, item.kind, item.data, item.detail ? JSON.stringify(item.detail) : null);
      }
      for (const [runId, cursor] of dirty) this.updateRun.run(cursor.nextSeq - 1, cursor.unflushedBytes, cursor.truncated ? 1 : 0, runId);
      alsoInTransaction?.();
    })();
    // Committed: only now forget what was written and tell listeners.
    this.pending = [];
    this.pendingChars = 0;
    for (const [, cursor] of dirty) {
      cursor.unflushedBytes = 0;
      cursor.dirty = false;
    }
    for (const appended of batch) this.appended.fire(appended);
  }

  /** The run is done: its items are written and its cursor dropped (it is re-read from the table if needed). */
  release(runId: string): void {
    this.flush();
    this.cursors.delete(runId);
  }

  dispose(): void {
    this.flushOrReport();
    this.appended.dispose();
  }
}
