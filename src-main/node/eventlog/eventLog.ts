import type { Disposable, Utf8Text } from '../../../src-preload/rpc';
import type { Database } from '../store/database';
import { SecretRegistry } from '../vault/secretRegistry';
import { EventRowWriter, type EventRow } from './eventRowWriter';
import type { EventAppend, LoggedEvent } from './loggedEvent';
import { readSessionEvents, type EventRange } from './storedEvents';

export interface EventLogOptions {
  now?: () => number;
  /** Output waits in memory at most this long before it is written (default 50 ms). */
  flushDelayMs?: number;
  /** Once this many characters are pending they are written without waiting for the delay (default 1 Mi). */
  flushChars?: number;
  /** A row of coalesced output stops growing at this many characters (default 256 Ki). */
  maxRowChars?: number;
  /**
   * Output is scrubbed as it is written (SecretScrubber: these registered values and token shapes), so secrets
   * never reach the disk. Where that changes something, a replay shows the marker where the live scrollback, which
   * lives only in memory, showed the value. A secret split across two rows (rows end at a flush or at
   * `maxRowChars`) can escape it. Default: token shapes only.
   */
  secrets?: SecretRegistry;
  /**
   * Where write failures are reported (default: stderr). A batch that still fails after a few retries is given up:
   * replay then reports the gap it leaves.
   */
  onWriteError?: (error: Error, events: number) => void;
  /**
   * How far (characters) the writer thread, which runs at a lower priority than the host's, may fall behind during a
   * flood before appends wait for it (default 32 Mi): bounds the memory the backlog holds and what a crash loses.
   */
  maxWriterBacklogChars?: number;
  /**
   * The writer thread checkpoints the WAL once the batches pause, or after writing this many bytes (default 64 MiB)
   * since its last checkpoint: the most a flood grows the WAL by.
   */
  walCheckpointBytes?: number;
}

export class EventLogClosedError extends Error {
  constructor(kind: string) {
    super(`the event log is closed (the host is shutting down); a "${kind}" event arrived after it`);
    this.name = 'EventLogClosedError';
  }
}

/** An event waiting in memory; `chunks` is set for output, which later chunks of the same stream may join. */
interface PendingRow {
  sessionId: string;
  seq: number;
  ts: number;
  kind: string;
  subject: string | null;
  payload: string | null;
  chunks: (string | Utf8Text)[] | null;
  chars: number;
}

const lengthOf = (data: string | Utf8Text): number => (typeof data === 'string' ? data.length : data.chars);

/**
 * A row's output as the writer gets it: text when it came as text, else UTF-8 bytes (the pty's, untouched when the
 * row is one chunk; a pty chunk's bytes own their ArrayBuffer, so crossing to the writer's thread copies only them).
 */
function rowData(chunks: (string | Utf8Text)[]): string | Uint8Array {
  if (chunks.every((c) => typeof c === 'string')) return chunks.length === 1 ? chunks[0] : chunks.join('');
  if (chunks.length === 1) return (chunks[0] as Utf8Text).bytes;
  return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c.bytes)));
}

const reportToStderr = (error: Error, events: number) =>
  console.error(`event log: ${events > 0 ? `${events} event(s) could not be written` : 'writer problem'}: ${error.message}`);

/**
 * The event log: everything that streams (output chunks, state changes), per session, append-only apart from
 * retention, in the app database's `event_log` table. It is not the audit ledger: no hash chain, and retention may
 * remove from it (retention.ts).
 *
 * Each session's events are numbered 1, 2, 3… without gaps; the number is given at append time, in memory, so the
 * order is exactly the order the services fired their changes in.
 *
 * Writing: output is held in memory and handed to a writer thread (EventRowWriter) in batches, at most
 * `flushDelayMs` later or as soon as `flushChars` are pending; each batch is one transaction there, so a terminal
 * flooding output costs the host's thread neither a SQLite write per chunk nor the writes (nor the secret
 * scrubbing) themselves. The writer thread runs at a lower priority than the host's: during a flood on a machine
 * short of cores it lets the pty → renderer path go first and falls behind, by at most `maxWriterBacklogChars`
 * (then appends wait for it), catching up once the flood is over. Output
 * chunks of one stream (kind + subject) that follow each other in a session become one row of up to `maxRowChars`.
 * A `durable` append (state changes: a session renamed) returns only once it is committed (after the writer's
 * backlog, so during a flood it may wait for that).
 *
 * Durability (the database runs WAL with synchronous=NORMAL):
 * - clean shutdown (dispose): nothing is lost;
 * - the host process killed or crashing: output of the last `flushDelayMs` (at most `flushChars` of it) plus the
 *   batches the writer had not committed yet is lost: a few ms of work when it keeps up, at most
 *   `maxWriterBacklogChars` of output during a flood; durable events are lost only if the
 *   process dies between the service's own commit and the event's, which run back to back in one call;
 * - power loss or an OS crash: additionally the transactions committed since the last WAL sync (at a checkpoint,
 *   which the writer runs in the first lull, 100 ms, after a burst); the database is never corrupted (SQLite's
 *   guarantee for WAL + NORMAL).
 * What is stored is always a gapless prefix of each session's events: batches commit whole and in order.
 */
export class EventLog implements Disposable {
  private readonly now: () => number;
  private readonly flushDelayMs: number;
  private readonly flushChars: number;
  private readonly maxRowChars: number;
  private readonly writer: EventRowWriter;

  /** The last seq given out per session (loaded from the table on first use). */
  private readonly heads = new Map<string, number>();
  private pending: PendingRow[] = [];
  private pendingChars = 0;
  /** Per session, its newest pending row while it is output that the next chunk of the same stream may join. */
  private readonly growing = new Map<string, PendingRow>();
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private disposed = false;

  private readonly selectHead;

  constructor(
    private readonly db: Database,
    options: EventLogOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.flushDelayMs = options.flushDelayMs ?? 50;
    this.flushChars = options.flushChars ?? 1024 * 1024;
    this.maxRowChars = options.maxRowChars ?? 256 * 1024;
    this.selectHead = db.prepare<[string], { head: number | null }>('SELECT max(seq) AS head FROM event_log WHERE session_id = ?');
    this.writer = new EventRowWriter(
      db,
      options.secrets ?? new SecretRegistry(),
      options.onWriteError ?? reportToStderr,
      options.maxWriterBacklogChars,
      options.walCheckpointBytes,
    );
  }

  /**
   * Adds an event and returns its seq. Output text is stored as UTF-8, so it must be well-formed Unicode (what a
   * UTF-8 decoder such as the pty's produces); a lone surrogate would come back as U+FFFD. Output that is already
   * UTF-8 (a pty's, as Utf8Text) is kept as bytes; the writer's thread scrubs ASCII as bytes and decodes the rest.
   */
  append(event: EventAppend, options: { durable?: boolean } = {}): number {
    if (this.disposed) throw new EventLogClosedError(event.kind);
    const subject = event.subject ?? null;
    const dataChars = event.data === undefined ? 0 : lengthOf(event.data);
    if (event.data !== undefined) {
      const row = this.growing.get(event.sessionId);
      if (row && row.kind === event.kind && row.subject === subject && row.chars + dataChars <= this.maxRowChars) {
        row.chunks!.push(event.data);
        row.chars += dataChars;
        this.pendingChars += dataChars;
        this.afterAppend(options.durable);
        return row.seq;
      }
    }
    const seq = this.head(event.sessionId) + 1;
    this.heads.set(event.sessionId, seq);
    const payload = event.data === undefined ? JSON.stringify(event.payload) : null;
    const row: PendingRow = {
      sessionId: event.sessionId,
      seq,
      ts: this.now(),
      kind: event.kind,
      subject,
      payload,
      chunks: event.data === undefined ? null : [event.data],
      chars: event.data === undefined ? payload!.length : dataChars,
    };
    this.pending.push(row);
    this.pendingChars += row.chars;
    if (row.chunks) this.growing.set(event.sessionId, row);
    else this.growing.delete(event.sessionId);
    this.afterAppend(options.durable);
    return seq;
  }

  /** The seq of the session's latest event, written or pending (0 when it has none). */
  head(sessionId: string): number {
    let head = this.heads.get(sessionId);
    if (head === undefined) {
      head = this.selectHead.get(sessionId)?.head ?? 0;
      this.heads.set(sessionId, head);
    }
    return head;
  }

  /**
   * The session's latest seq, with its pending output closed to later chunks: everything appended afterwards gets
   * a greater seq, so replaying through the returned seq gives the session's state as of this call.
   */
  cut(sessionId: string): number {
    this.growing.delete(sessionId);
    return this.head(sessionId);
  }

  /** The session's events in seq order, pending ones included (they are written first). */
  events(sessionId: string, range: EventRange = {}): LoggedEvent[] {
    this.flush();
    this.writer.drain();
    return readSessionEvents(this.db, sessionId, range);
  }

  /** Characters handed to the writer thread and not committed yet (what a crash now would lose besides the pending). */
  get writerBacklogChars(): number {
    return this.writer.backlogChars;
  }

  /** Waits (blocking, bounded) until everything appended so far is committed. */
  settle(): void {
    this.flush();
    this.writer.drain();
  }

  /**
   * Resolves once everything appended so far is committed, as `settle()` returns, without blocking the host's thread
   * meanwhile: for a caller that can do other work before it needs its appends on disk.
   */
  async committed(): Promise<void> {
    this.flush();
    // Inside someone else's transaction flush() hands nothing over (it retries on the next turn): wait for it.
    while (this.pending.length > 0 && !this.disposed) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.flush();
    }
    await this.writer.drained();
  }

  private afterAppend(durable: boolean | undefined): void {
    if (durable) {
      this.settle();
    } else if (this.pendingChars >= this.flushChars) {
      // Soon, not now: the chunk that filled the batch reaches its readers first.
      this.immediate ??= setImmediate(() => this.flush());
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushDelayMs);
      this.timer.unref();
    }
  }

  /** Hands every pending event to the writer, to be committed as one transaction. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    if (this.pending.length === 0) return;
    if (this.db.inTransaction) {
      // Should the writer fall back to this connection, inside someone else's transaction our rows would vanish
      // with its rollback while their seqs stay given out.
      this.immediate = setImmediate(() => this.flush());
      return;
    }
    const rows: EventRow[] = this.pending.map(({ sessionId, seq, ts, kind, subject, payload, chunks, chars }) =>
      chunks === null
        ? { sessionId, seq, ts, kind, subject, payload, data: null, chars }
        : { sessionId, seq, ts, kind, subject, payload: null, data: rowData(chunks), chars },
    );
    this.pending = [];
    this.pendingChars = 0;
    this.growing.clear();
    this.writer.write(rows);
  }

  /** Writes what is pending and refuses further events. */
  dispose(): void {
    if (this.disposed) return;
    this.flush();
    this.disposed = true;
    this.writer.close();
  }
}
