import type { BacklogMessage } from '../../../src-preload/contract/exec';
import type { Database } from '../store/database';

/** Undelivered messages a session keeps; beyond it, matches are counted on one overflow message instead. */
export const BACKLOG_LIMIT = 100;
/** Delivered messages a session keeps for the UI's history; older ones are removed when the backlog is taken. */
export const DELIVERED_KEPT = 500;
export const OVERFLOW_EVENT = 'backlog.overflow';

interface BacklogRow {
  id: number;
  session_id: string;
  run_id: string;
  event: string;
  text: string;
  ts: number;
  delivered: number;
}

const toMessage = (row: BacklogRow): BacklogMessage => ({
  id: row.id,
  session_id: row.session_id,
  run_id: row.run_id,
  event: row.event,
  text: row.text,
  ts: row.ts,
  delivered: row.delivered === 1,
});

function overflowText(dropped: number): string {
  return (
    `${dropped} more watcher event${dropped === 1 ? ' was' : 's were'} not queued: the backlog holds ${BACKLOG_LIMIT} undelivered messages. ` +
    'Every match is still an event item of its run: poll the runs to see them.'
  );
}

/**
 * Watcher matches waiting for a session's agent (spec: "enqueues a backlog message keyed by session_id"). Bounded:
 * a session holds at most BACKLOG_LIMIT undelivered messages; further matches are not queued but counted on a single
 * overflow message, so a chatty watcher can neither grow the table without end nor go unnoticed.
 */
export class BacklogStore {
  private readonly countUndelivered;
  private readonly selectOverflow;
  private readonly insert;
  private readonly bumpOverflow;
  private readonly selectAll;
  private readonly selectUndelivered;
  private readonly markDelivered;
  private readonly pruneDelivered;

  constructor(private readonly db: Database) {
    this.countUndelivered = db.prepare<[string], { n: number }>(
      'SELECT count(*) AS n FROM exec_backlog WHERE session_id = ? AND delivered = 0 AND dropped IS NULL',
    );
    this.selectOverflow = db.prepare<[string], { id: number; dropped: number }>(
      'SELECT id, dropped FROM exec_backlog WHERE session_id = ? AND delivered = 0 AND dropped IS NOT NULL',
    );
    this.insert = db.prepare<[string, string, string, string, number, number | null]>(
      'INSERT INTO exec_backlog (session_id, run_id, event, text, ts, dropped) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.bumpOverflow = db.prepare<[number, string, string, number, number]>(
      'UPDATE exec_backlog SET dropped = ?, text = ?, run_id = ?, ts = ? WHERE id = ?',
    );
    this.selectAll = db.prepare<[string], BacklogRow>('SELECT * FROM exec_backlog WHERE session_id = ? ORDER BY id');
    this.selectUndelivered = db.prepare<[string], BacklogRow>('SELECT * FROM exec_backlog WHERE session_id = ? AND delivered = 0 ORDER BY id');
    this.markDelivered = db.prepare<[string, number]>('UPDATE exec_backlog SET delivered = 1 WHERE session_id = ? AND delivered = 0 AND id <= ?');
    this.pruneDelivered = db.prepare<[string, string, number]>(
      `DELETE FROM exec_backlog WHERE session_id = ? AND delivered = 1 AND id < (
         SELECT id FROM exec_backlog WHERE session_id = ? AND delivered = 1 ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    );
  }

  /** Queues a message, or counts it on the overflow message when the session's backlog is full. */
  enqueue(sessionId: string, runId: string, event: string, text: string, ts: number): BacklogMessage {
    return this.db.transaction(() => {
      const id =
        this.countUndelivered.get(sessionId)!.n < BACKLOG_LIMIT
          ? Number(this.insert.run(sessionId, runId, event, text, ts, null).lastInsertRowid)
          : this.countDropped(sessionId, runId, ts);
      return toMessage(this.db.prepare<[number], BacklogRow>('SELECT * FROM exec_backlog WHERE id = ?').get(id)!);
    })();
  }

  private countDropped(sessionId: string, runId: string, ts: number): number {
    const overflow = this.selectOverflow.get(sessionId);
    if (!overflow) return Number(this.insert.run(sessionId, runId, OVERFLOW_EVENT, overflowText(1), ts, 1).lastInsertRowid);
    this.bumpOverflow.run(overflow.dropped + 1, overflowText(overflow.dropped + 1), runId, ts, overflow.id);
    return overflow.id;
  }

  /** Everything the session's backlog holds, oldest first. */
  list(sessionId: string): BacklogMessage[] {
    return this.selectAll.all(sessionId).map(toMessage);
  }

  /** The undelivered messages, now marked delivered. */
  take(sessionId: string): BacklogMessage[] {
    return this.db.transaction(() => {
      const rows = this.selectUndelivered.all(sessionId);
      if (rows.length > 0) {
        this.markDelivered.run(sessionId, rows[rows.length - 1].id);
        this.pruneDelivered.run(sessionId, sessionId, DELIVERED_KEPT - 1);
      }
      return rows.map((row) => ({ ...toMessage(row), delivered: true }));
    })();
  }
}
