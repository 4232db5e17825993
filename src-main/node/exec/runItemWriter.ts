import type { RunItem } from '../../../src-preload/contract/exec';
import { Emitter, type Disposable } from '../../../src-preload/rpc';
import type { Database } from '../store/database';
import { SecretScrubber } from '../vault/secretScrubber';
import { StreamScrubber } from '../vault/streamScrubber';

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
 * How long a stream that stopped mid-line keeps its unfinished line back (see StreamScrubber) before readers get
 * it: long enough for the rest of a write the reads cut in two, short enough for a prompt to show without a wait.
 */
export const HOLD_MS = 100;

type OutputKind = 'stdout' | 'stderr' | 'output';
const isOutput = (kind: RunItem['kind']): kind is OutputKind => kind === 'stdout' || kind === 'stderr' || kind === 'output';

/** One output stream of a run, scrubbed as it comes, and when it last grew. */
interface HeldStream {
  scrubber: StreamScrubber;
  lastPushAt: number;
}

/**
 * Numbers, scrubs and writes the items of every run. `append` assigns the next seq of the run at once (so seqs are gapless
 * and in call order) and queues the item; queued items of all runs are written in one transaction at the end of the
 * event-loop turn, or sooner when FLUSH_CHARS are waiting, together with each run's last_seq and output size.
 * Listeners hear an item only after it has committed, so a replay from the table followed by live items neither
 * misses nor repeats one. A host killed mid-turn loses at most that turn's items, never a seq in the middle.
 *
 * Secrets never reach the table nor a reader (poll, the run card): every item is scrubbed (SecretScrubber, the
 * host's: registered values and token shapes) before it gets its seq. Output is scrubbed per stream as it comes,
 * holding back each stream's unfinished line so that a token cut in two by the reads is scrubbed whole; that line
 * goes out with the stream's next output, when the attempt ends (endOutput), or once the stream has been quiet for
 * HOLD_MS.
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
  /** Per run, its output streams with something held back or a key block being dropped. */
  private readonly streams = new Map<string, Map<OutputKind, HeldStream>>();
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
    readonly scrubber: SecretScrubber = new SecretScrubber(),
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

  /**
   * Queues one item, scrubbed; returns its seq. Output (`outputBytes` is what it adds to the run's output size) goes
   * through appendOutput, which may hold part of it back: then the seq is that of the run's last item so far.
   */
  append(runId: string, kind: RunItem['kind'], data: string, detail?: Record<string, unknown>, outputBytes = 0): number {
    if (isOutput(kind)) {
      this.appendOutput(runId, kind, data, outputBytes);
      return this.lastSeq(runId);
    }
    return this.queue(runId, kind, this.scrubber.scrubText(data), detail && this.scrubber.scrubPayload(detail));
  }

  /** A piece of a run's output stream: scrubbed with what the stream held back, the new unfinished line held. */
  appendOutput(runId: string, kind: OutputKind, text: string, outputBytes: number): void {
    const cursor = this.cursor(runId);
    cursor.unflushedBytes += outputBytes;
    cursor.dirty = true;
    let byKind = this.streams.get(runId);
    if (!byKind) this.streams.set(runId, (byKind = new Map()));
    let stream = byKind.get(kind);
    if (!stream) byKind.set(kind, (stream = { scrubber: new StreamScrubber(this.scrubber), lastPushAt: 0 }));
    stream.lastPushAt = performance.now();
    const released = stream.scrubber.push(text);
    if (released) this.queue(runId, kind, released);
    else this.scheduleFlush();
    if (stream.scrubber.heldChars > 0) this.armHoldTimer();
  }

  /** The run's output has ended (its attempt is over): what its streams held back is queued as items. */
  endOutput(runId: string): void {
    const byKind = this.streams.get(runId);
    if (!byKind) return;
    this.streams.delete(runId);
    for (const [kind, stream] of byKind) {
      const rest = stream.scrubber.end();
      if (rest) this.queue(runId, kind, rest);
    }
  }

  private queue(runId: string, kind: RunItem['kind'], data: string, detail?: Record<string, unknown>): number {
    const cursor = this.cursor(runId);
    const item: RunItem = { seq: cursor.nextSeq++, ts: this.now(), kind, data };
    if (detail) item.detail = detail;
    cursor.dirty = true;
    this.pending.push({ runId, item });
    this.pendingChars += data.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flushOrReport();
    else this.scheduleFlush();
    return item.seq;
  }

  private scheduleFlush(): void {
    this.scheduled ??= setImmediate(() => this.flushOrReport());
  }

  private armHoldTimer(): void {
    if (this.holdTimer) return;
    this.holdTimer = setTimeout(() => {
      // Let go only after the event loop's next look at the pipes: a host busy past HOLD_MS (this timer late) may
      // have the rest of the line waiting to be read.
      setImmediate(() => {
        this.holdTimer = undefined;
        this.releaseQuietStreams();
      });
    }, HOLD_MS);
    this.holdTimer.unref();
  }

  private releaseQuietStreams(): void {
    const now = performance.now();
    let waiting = false;
    for (const [runId, byKind] of this.streams) {
      for (const [kind, stream] of byKind) {
        if (stream.scrubber.heldChars === 0) continue;
        if (now - stream.lastPushAt < HOLD_MS) {
          waiting = true;
          continue;
        }
        const rest = stream.scrubber.end();
        if (rest) this.queue(runId, kind, rest);
      }
    }
    if (waiting) this.armHoldTimer();
  }

  /** The run's output was cut at its max_output_bytes: recorded on the run with its next flush. */
  markTruncated(runId: string): void {
    const cursor = this.cursor(runId);
    cursor.truncated = true;
    cursor.dirty = true;
    this.scheduleFlush();
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
    this.endOutput(runId);
    this.flush();
    this.cursors.delete(runId);
  }

  dispose(): void {
    for (const runId of [...this.streams.keys()]) this.endOutput(runId);
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.flushOrReport();
    this.appended.dispose();
  }
}
