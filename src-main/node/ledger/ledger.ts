import type { LedgerEntry } from '../../../src-preload/contract';
import { Emitter } from '../../../src-preload/rpc';
import type { Database } from '../store/database';

export interface LedgerAppend {
  type: string;
  actor: string;
  sessionId?: string | null;
  payload?: Record<string, unknown>;
}

interface Row {
  seq: number;
  ts: number;
  type: string;
  actor: string;
  session_id: string | null;
  payload: string;
}

const toEntry = (row: Row): LedgerEntry => ({
  seq: row.seq,
  ts: row.ts,
  type: row.type,
  actor: row.actor,
  sessionId: row.session_id,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
});

/**
 * The first audit ledger: one append-only row per state-changing action (the table's triggers refuse UPDATE and
 * DELETE). Listeners hear every append, which is how the ledger view stays live.
 */
export class Ledger {
  private readonly appended = new Emitter<LedgerEntry>();
  readonly onDidAppend = this.appended.event;
  private readonly insert;
  private readonly selectAfter;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.insert = db.prepare<[number, string, string, string | null, string], Row>(
      'INSERT INTO ledger_events (ts, type, actor, session_id, payload) VALUES (?, ?, ?, ?, ?) RETURNING *',
    );
    this.selectAfter = db.prepare<[number, number], Row>('SELECT * FROM ledger_events WHERE seq > ? ORDER BY seq LIMIT ?');
  }

  append(event: LedgerAppend): LedgerEntry {
    const row = this.insert.get(this.now(), event.type, event.actor, event.sessionId ?? null, JSON.stringify(event.payload ?? {}))!;
    const entry = toEntry(row);
    this.appended.fire(entry);
    return entry;
  }

  /** Newest first; `beforeSeq` pages backwards. */
  list(options: { sessionId?: string; beforeSeq?: number; limit: number }): LedgerEntry[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (options.sessionId) {
      where.push('session_id = ?');
      args.push(options.sessionId);
    }
    if (options.beforeSeq) {
      where.push('seq < ?');
      args.push(options.beforeSeq);
    }
    const sql = `SELECT * FROM ledger_events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`;
    return this.db.prepare<(string | number)[], Row>(sql).all(...args, options.limit).map(toEntry);
  }

  after(seq: number, limit: number): LedgerEntry[] {
    return this.selectAfter.all(seq, limit).map(toEntry);
  }

  dispose(): void {
    this.appended.dispose();
  }
}
