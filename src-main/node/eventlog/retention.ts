import type { Disposable } from '../../../src-preload/rpc';
import type { Database } from '../store/database';
import { SCROLLBACK_CHARS } from '../terminals/scrollback';
import { EventKind, STREAM_ENDS, type DroppedEvents } from './eventKinds';
import type { EventLog } from './eventLog';

export interface RetentionOptions {
  /**
   * Output bytes (UTF-8) a session keeps. Above it the oldest output goes, except what replay needs: the last
   * `replayTailChars` of every stream that has not ended (an open terminal's scrollback). Default 32 MiB.
   */
  outputBytesPerSession?: number;
  /** A session closed for longer than this loses all its events (default 30 days). */
  closedSessionMaxAgeMs?: number;
  /** Characters at the end of each open stream that replay needs (default: the terminal scrollback's limit). */
  replayTailChars?: number;
  /** The first run, this long after start() so it does not slow the host's startup (default 5 s). */
  startupDelayMs?: number;
  /** Then a run every intervalMs (default 10 min). */
  intervalMs?: number;
  now?: () => number;
  onError?: (error: Error) => void;
}

export interface RetentionReport {
  /** Closed sessions whose events were all removed. */
  expiredSessions: number;
  /** Sessions whose oldest output was removed to fit the budget. */
  compactedSessions: number;
  droppedEvents: number;
  droppedBytes: number;
}

interface RowMeta {
  seq: number;
  kind: string;
  subject: string | null;
  /** Output only: its UTF-8 bytes and UTF-16 length. */
  bytes: number | null;
  chars: number | null;
  /** Retention markers only. */
  marker: string | null;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * Keeps the event log bounded: removes every event of sessions closed long ago, and drops the oldest output of a
 * session over its byte budget. State events (renames, terminals opened, resized, exited, closed) are kept. Each
 * run of removed events becomes one `eventlog.dropped` marker at the first removed seq, saying which seqs it
 * stands for, so the log stays gapless and a replay knows nothing went missing by accident. Output still needed to
 * rebuild an open terminal's scrollback is never dropped, so replay stays exact.
 *
 * Runs synchronously on the host's thread (one transaction per session it changes), once shortly after startup and
 * then periodically.
 */
export class EventLogRetention implements Disposable {
  private readonly outputBytesPerSession: number;
  private readonly closedSessionMaxAgeMs: number;
  private readonly replayTailChars: number;
  private readonly startupDelayMs: number;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly onError: (error: Error) => void;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly log: EventLog,
    options: RetentionOptions = {},
  ) {
    this.outputBytesPerSession = options.outputBytesPerSession ?? 32 * 1024 * 1024;
    this.closedSessionMaxAgeMs = options.closedSessionMaxAgeMs ?? 30 * DAY;
    this.replayTailChars = options.replayTailChars ?? SCROLLBACK_CHARS;
    this.startupDelayMs = options.startupDelayMs ?? 5000;
    this.intervalMs = options.intervalMs ?? 10 * 60 * 1000;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? ((error) => console.error(`event log retention failed, will try again later: ${error.message}`));
  }

  start(): void {
    const tick = (next: number) => {
      this.timer = setTimeout(() => {
        try {
          this.run();
        } catch (error) {
          this.onError(error as Error);
        }
        tick(this.intervalMs);
      }, next);
      this.timer.unref();
    };
    tick(this.startupDelayMs);
  }

  run(): RetentionReport {
    this.log.settle();
    const report: RetentionReport = { expiredSessions: 0, compactedSessions: 0, droppedEvents: 0, droppedBytes: 0 };
    const expired = this.db
      .prepare<[number, string], { id: string }>(
        `SELECT s.id FROM sessions s
          WHERE s.status = 'closed' AND s.updated_at < ?
            AND EXISTS (SELECT 1 FROM event_log e WHERE e.session_id = s.id AND e.kind <> ?)`,
      )
      .all(this.now() - this.closedSessionMaxAgeMs, EventKind.dropped);
    for (const { id } of expired) {
      const rows = this.rows(id);
      const { events, bytes } = this.replace(id, rows, 'expired');
      report.expiredSessions++;
      report.droppedEvents += events;
      report.droppedBytes += bytes;
    }

    const over = this.db
      .prepare<[number], { id: string }>(
        'SELECT session_id AS id FROM event_log WHERE data IS NOT NULL GROUP BY session_id HAVING sum(length(data)) > ?',
      )
      .all(this.outputBytesPerSession);
    for (const { id } of over) {
      const dropped = this.compact(id);
      if (dropped.events === 0) continue;
      report.compactedSessions++;
      report.droppedEvents += dropped.events;
      report.droppedBytes += dropped.bytes;
    }
    return report;
  }

  private rows(sessionId: string): RowMeta[] {
    return this.db
      .prepare<[string, string], RowMeta>(
        `SELECT seq, kind, subject, length(data) AS bytes, data_chars AS chars, CASE WHEN kind = ? THEN payload END AS marker
           FROM event_log WHERE session_id = ? ORDER BY seq`,
      )
      .all(EventKind.dropped, sessionId);
  }

  /** Drops the oldest output that replay does not need until the session fits its budget. */
  private compact(sessionId: string): { events: number; bytes: number } {
    const rows = this.rows(sessionId);
    const ended = new Set<string>();
    for (const row of rows) if (row.bytes === null && row.subject !== null) ended.add(`${row.kind}\0${row.subject}`);

    // Newest first: an output row is needed while fewer than replayTailChars of its stream follow it.
    const needed = new Set<number>();
    const after = new Map<string, number>();
    let total = 0;
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i];
      if (row.bytes === null) continue;
      total += row.bytes;
      const stream = `${row.kind}\0${row.subject ?? ''}`;
      const end = STREAM_ENDS[row.kind];
      const following = after.get(stream) ?? 0;
      if (!(end !== undefined && ended.has(`${end}\0${row.subject ?? ''}`)) && following < this.replayTailChars) needed.add(row.seq);
      after.set(stream, following + (row.chars ?? 0));
    }

    let excess = total - this.outputBytesPerSession;
    const drop = new Set<number>();
    for (const row of rows) {
      if (excess <= 0) break;
      if (row.bytes === null || needed.has(row.seq)) continue;
      drop.add(row.seq);
      excess -= row.bytes;
    }
    if (drop.size === 0) return { events: 0, bytes: 0 };

    // Consecutive removed rows (old markers included) become one marker.
    const dropped = { events: 0, bytes: 0 };
    this.db.transaction(() => {
      let run: RowMeta[] = [];
      const close = () => {
        if (run.some((r) => drop.has(r.seq))) {
          const done = this.replace(sessionId, run, 'output-budget', drop);
          dropped.events += done.events;
          dropped.bytes += done.bytes;
        }
        run = [];
      };
      for (const row of rows) {
        if (drop.has(row.seq) || row.marker !== null) run.push(row);
        else close();
      }
      close();
    })();
    return dropped;
  }

  /**
   * Replaces consecutive rows (`run`, in seq order) by one marker at the first one's seq; returns what the new
   * marker counts beyond the old markers it absorbs. `drop` holds the rows removed now (all of them when absent).
   */
  private replace(sessionId: string, run: RowMeta[], reason: DroppedEvents['reason'], drop?: Set<number>): { events: number; bytes: number } {
    const marker: DroppedEvents = { through: run[0].seq, events: 0, bytes: 0, reason };
    const fresh = { events: 0, bytes: 0 };
    for (const row of run) {
      if (row.marker !== null && !drop?.has(row.seq)) {
        const old = JSON.parse(row.marker) as DroppedEvents;
        marker.events += old.events;
        marker.bytes += old.bytes;
        marker.through = Math.max(marker.through, old.through);
      } else {
        marker.events++;
        marker.bytes += row.bytes ?? 0;
        marker.through = Math.max(marker.through, row.seq);
        fresh.events++;
        fresh.bytes += row.bytes ?? 0;
      }
    }
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM event_log WHERE session_id = ? AND seq BETWEEN ? AND ?').run(sessionId, run[0].seq, run[run.length - 1].seq);
      this.db
        .prepare('INSERT INTO event_log (session_id, seq, ts, kind, subject, payload) VALUES (?, ?, ?, ?, NULL, ?)')
        .run(sessionId, run[0].seq, this.now(), EventKind.dropped, JSON.stringify(marker));
    })();
    return fresh;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
