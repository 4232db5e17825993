import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database } from '../store/database';
import type { SecretRegistry } from '../vault/secretRegistry';
import { SecretScrubber } from '../vault/secretScrubber';
import { storedData } from './eventRowData';
import { parseWorkerMessage, WorkerMessageError } from '../base/workerMessage';
import { INSERT_EVENT_ROW, type EventRow, type WriterBatch, type WriterSetup } from './eventRowProtocol';
import { WRITER_THREAD, WriterFailureSchema } from './writerFailure';

export type { EventRow } from './eventRowProtocol';

/** How far (characters of output) the writer thread may fall behind before the host's thread waits for it. */
export const DEFAULT_MAX_BACKLOG_CHARS = 32 * 1024 * 1024;

/** How much the writer thread writes before it checkpoints even without a lull (the WAL a long flood grows). */
export const DEFAULT_CHECKPOINT_AFTER_BYTES = 64 * 1024 * 1024;

/** The worker's script: the bundle next to this one in a build, the TypeScript source under tsx (tests, dev). */
function workerScript(): string | null {
  for (const name of ['eventLogWriterWorker.cjs', 'eventLogWriterWorker.js', 'eventLogWriterWorker.ts']) {
    const file = join(__dirname, name);
    if (existsSync(file)) return file;
  }
  return null;
}

function startWorker(script: string, setup: WriterSetup): Worker {
  // Under tsx the source is loaded through tsx's CommonJS hook, which a worker does not inherit.
  return script.endsWith('.ts')
    ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(script)});`, { eval: true, workerData: setup })
    : new Worker(script, { workerData: setup });
}

/**
 * Scrubs and writes event rows on a worker thread with its own SQLite connection (eventLogWriterWorker.ts), so
 * neither the secret scrubbing of output, nor the transactions, nor the WAL checkpoints a flood of terminal output
 * brings (each one an fsync) run on the host's event loop. Batches commit in the order given, each whole or not at
 * all. `drain()` waits (blocking, bounded) until every batch given so far has finished: what readers and durable
 * appends need. The worker runs at a lower priority than the host's thread (eventLogWriterWorker.ts); `write()`
 * waits for it once it is more than `maxBacklogChars` behind. It checkpoints the WAL in the lulls between batches,
 * or after `checkpointAfterBytes`, not every few MB as SQLite would.
 *
 * Output is scrubbed of the registered secrets and of token shapes before it is stored (secrets never reach the
 * disk). Where no worker can run (an in-memory database, a worker that fails to start or dies) rows are scrubbed
 * and written on the caller's connection instead; batches a dead worker may not have finished are written again
 * (rows already there are kept).
 */
export class EventRowWriter {
  private worker: Worker | undefined;
  private readonly done = new Int32Array(new SharedArrayBuffer(4));
  private posted = 0;
  /** Batches given to the worker and not yet finished, kept to be written here should the worker die. */
  private inflight: { id: number; rows: EventRow[]; chars: number }[] = [];
  /** Characters of output and payloads in `inflight`. */
  private inflightChars = 0;
  /** The registry generation the worker last heard of. */
  private sentGeneration = -1;
  private readonly scrubber: SecretScrubber;
  private readonly writeHere;

  constructor(
    private readonly db: Database,
    private readonly secrets: SecretRegistry,
    private readonly onError: (error: Error, rows: number) => void,
    private readonly maxBacklogChars = DEFAULT_MAX_BACKLOG_CHARS,
    checkpointAfterBytes = DEFAULT_CHECKPOINT_AFTER_BYTES,
  ) {
    this.scrubber = new SecretScrubber(secrets);
    const insert = db.prepare(INSERT_EVENT_ROW.replace('INSERT', 'INSERT OR IGNORE'));
    this.writeHere = db.transaction((rows: EventRow[]) => {
      for (const r of rows) {
        const data = storedData(r.data, this.scrubber);
        insert.run(r.sessionId, r.seq, r.ts, r.kind, r.subject, r.payload, data?.blob ?? null, data?.chars ?? null);
      }
    });
    if (db.memory) return;
    const script = workerScript();
    if (!script) {
      this.onError(new Error(`no eventLogWriterWorker script beside ${__dirname} (is the build complete?); writing on the host's thread`), 0);
      return;
    }
    try {
      const worker = startWorker(script, { file: db.name, done: this.done.buffer as SharedArrayBuffer, checkpointAfterBytes });
      worker.on('message', (message: unknown) => this.onWorkerMessage(message));
      worker.on('error', (error) => this.fallBack(worker, error));
      worker.on('exit', (code) => this.fallBack(worker, new Error(`the event log's writer thread stopped (exit code ${code})`)));
      // After the listeners, which would otherwise hold the process open: an idle writer must not keep the host alive.
      worker.unref();
      this.worker = worker;
    } catch (error) {
      this.onError(error as Error, 0);
    }
  }

  /** The writer thread speaks only to report a batch it gave up on; anything else is reported as what it is. */
  private onWorkerMessage(message: unknown): void {
    let failure;
    try {
      failure = parseWorkerMessage(WriterFailureSchema, message, WRITER_THREAD);
    } catch (error) {
      if (!(error instanceof WorkerMessageError)) throw error;
      this.onError(error, 0);
      return;
    }
    this.onError(new Error(failure.error), failure.rows);
  }

  /** Hands a batch over; it commits in order after every batch given before it. */
  write(rows: EventRow[]): void {
    if (rows.length === 0) return;
    if (!this.worker) {
      this.writeOnCallersThread(rows);
      return;
    }
    this.prune();
    const batch: WriterBatch = { id: ++this.posted, rows };
    if (this.sentGeneration !== this.secrets.generation) {
      // Values cross to the other thread of this process only; they are never written anywhere.
      batch.secrets = this.secrets.values();
      this.sentGeneration = this.secrets.generation;
    }
    const chars = rows.reduce((sum, r) => sum + r.chars, 0);
    this.inflight.push({ id: batch.id, rows, chars });
    this.inflightChars += chars;
    this.worker.postMessage(batch);
    if (this.inflightChars > this.maxBacklogChars) this.waitUntilBacklogBelow(this.maxBacklogChars / 2);
  }

  /** Characters handed to the writer thread that it has not finished yet. */
  get backlogChars(): number {
    this.prune();
    return this.inflightChars;
  }

  /**
   * The writer runs at a lower priority than the host's thread and can fall behind during a flood; past
   * `maxBacklogChars` the host's thread waits here (not reading from any pty meanwhile, so the flood waits too)
   * until it is down to `target`, which bounds both the memory the backlog holds and what a crash can lose.
   */
  private waitUntilBacklogBelow(target: number, timeoutMs = 30_000): void {
    const deadline = Date.now() + timeoutMs;
    while (this.worker && this.backlogChars > target) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      Atomics.wait(this.done, 0, Atomics.load(this.done, 0), Math.min(left, 100));
    }
  }

  /** Blocks until every batch given so far has finished (committed, or given up and reported), or `timeoutMs`. */
  drain(timeoutMs = 30_000): boolean {
    const deadline = Date.now() + timeoutMs;
    while (this.worker && Atomics.load(this.done, 0) < this.posted) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      Atomics.wait(this.done, 0, Atomics.load(this.done, 0), Math.min(left, 100));
    }
    this.prune();
    return true;
  }

  /**
   * Resolves once every batch given so far has finished, as `drain()` does, or `false` after `timeoutMs`; the host's
   * thread goes on meanwhile. Batches given after the call are not waited for.
   */
  async drained(timeoutMs = 30_000): Promise<boolean> {
    const target = this.posted;
    const deadline = Date.now() + timeoutMs;
    while (this.worker && Atomics.load(this.done, 0) < target) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      const waiting = Atomics.waitAsync(this.done, 0, Atomics.load(this.done, 0), Math.min(left, 100));
      if (waiting.async) await waiting.value;
    }
    this.prune();
    return true;
  }

  /** Finishes every batch, then stops the worker. */
  close(): void {
    const worker = this.worker;
    if (!worker) return;
    const last: WriterBatch = { id: ++this.posted, close: true };
    worker.postMessage(last);
    const finished = this.drain();
    this.worker = undefined;
    worker.removeAllListeners();
    void worker.terminate();
    if (!finished) this.writeOnCallersThread(this.inflight.flatMap((b) => b.rows));
    this.inflight = [];
    this.inflightChars = 0;
  }

  private prune(): void {
    const finished = Atomics.load(this.done, 0);
    while (this.inflight.length > 0 && this.inflight[0].id <= finished) this.inflightChars -= this.inflight.shift()!.chars;
  }

  private fallBack(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.onError(error, 0);
    this.prune();
    const unfinished = this.inflight.flatMap((b) => b.rows);
    this.inflight = [];
    this.inflightChars = 0;
    this.writeOnCallersThread(unfinished);
  }

  private writeOnCallersThread(rows: EventRow[]): void {
    if (rows.length === 0) return;
    try {
      this.writeHere(rows);
    } catch (error) {
      this.onError(error as Error, rows.length);
    }
  }
}
