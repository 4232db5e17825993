// The event log's writer thread (see eventRowWriter.ts). Built as its own bundle next to each entry point that may
// start it (scripts/build.mjs); under tsx the TypeScript source is loaded instead.
import { parentPort, workerData } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { loadNative } from '../base/native';
import { lowerThisThreadPriority } from '../base/threadPriority';
import { Secret } from '../vault/secret';
import { SecretRegistry } from '../vault/secretRegistry';
import { SecretScrubber } from '../vault/secretScrubber';
import { storedData } from './eventRowData';
import { INSERT_EVENT_ROW, type EventRow, type WriterBatch, type WriterFailure, type WriterSetup } from './eventRowProtocol';

const ATTEMPTS = 5;
const TRANSIENT = /^SQLITE_(BUSY|LOCKED|FULL|IOERR)/;

/**
 * How much kinder than the host's own threads this one runs. Storing output is never what the user is waiting for,
 * while showing it is: during a flood on a machine short of cores, the pty → host → renderer path gets the cores
 * first and the writer catches up in the time left (EventRowWriter bounds how far behind it may fall). Only a
 * little kinder: when other work takes every core, a writer much kinder than this falls its whole bound behind and
 * the host then waits on it at that low priority, which slows the flood itself; at +3 it keeps up there and still
 * gives way to the renderer. The levels tried: docs/performance.md#event-log.
 */
export const WRITER_NICE_STEPS = 3;

/** How long the batches must pause before this thread checkpoints what it wrote (see run()). */
const CHECKPOINT_AFTER_IDLE_MS = 100;

function run(port: NonNullable<typeof parentPort>, setup: WriterSetup): void {
  lowerThisThreadPriority(WRITER_NICE_STEPS);
  const Sqlite = loadNative<typeof BetterSqlite3>('better-sqlite3');
  const db = new Sqlite(setup.file, { timeout: 5000 });
  db.pragma('synchronous = NORMAL');
  // Checkpoints (copying the WAL into the database file, with an fsync) are a large share of this thread's SQLite
  // work, and SQLite runs one every 1000 pages (4 MB) by itself: during a flood, on the cores the renderer needs.
  // This connection leaves them for the first lull in the batches instead, or for `checkpointAfterBytes` written
  // since the last one, which bounds the WAL a long flood grows. The checkpoint's cost moves after the flood rather
  // than going away (docs/performance.md#event-log). (The host's own connection keeps SQLite's; it writes little.)
  db.pragma('wal_autocheckpoint = 0');
  let writtenSinceCheckpoint = 0;
  let lull: NodeJS.Timeout | undefined;
  const checkpoint = (): void => {
    clearTimeout(lull);
    lull = undefined;
    writtenSinceCheckpoint = 0;
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or failing (the disk): the next checkpoint takes what this one left.
    }
  };
  const insert = db.prepare(INSERT_EVENT_ROW);
  let scrubber = new SecretScrubber();
  const write = db.transaction((rows: EventRow[]) => {
    for (const r of rows) {
      // Scrubbed here, off the host's thread: on a flood of output this is most of the host-side cost.
      const data = storedData(r.data, scrubber);
      writtenSinceCheckpoint += data?.blob.byteLength ?? r.payload?.length ?? 0;
      insert.run(r.sessionId, r.seq, r.ts, r.kind, r.subject, r.payload, data?.blob ?? null, data?.chars ?? null);
    }
  });
  const done = new Int32Array(setup.done);
  const nap = new Int32Array(new SharedArrayBuffer(4));

  port.on('message', (batch: WriterBatch) => {
    if (batch.secrets) {
      const registry = new SecretRegistry();
      for (const value of batch.secrets) registry.register(new Secret(value));
      scrubber = new SecretScrubber(registry);
    }
    if (batch.rows) {
      let failure: unknown;
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        try {
          write(batch.rows);
          failure = undefined;
          break;
        } catch (error) {
          failure = error;
          // A locked database or a full or failing disk may clear up: wait a little (this thread has nothing else
          // to do) and try again. Anything else would fail the same way again.
          if (!TRANSIENT.test((error as { code?: string }).code ?? '')) break;
          Atomics.wait(nap, 0, 0, 200 * attempt);
        }
      }
      if (failure !== undefined) {
        const message: WriterFailure = { rows: batch.rows.length, error: failure instanceof Error ? failure.message : String(failure) };
        port.postMessage(message);
      }
    }
    if (batch.close) {
      checkpoint(); // What this thread wrote goes into the database file before it lets go.
      db.close();
    } else if (writtenSinceCheckpoint >= setup.checkpointAfterBytes) {
      checkpoint();
    } else if (writtenSinceCheckpoint > 0) {
      clearTimeout(lull);
      lull = setTimeout(checkpoint, CHECKPOINT_AFTER_IDLE_MS);
    }
    Atomics.store(done, 0, batch.id);
    Atomics.notify(done, 0);
  });
}

if (parentPort && workerData) run(parentPort, workerData as WriterSetup);
