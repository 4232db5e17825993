import type BetterSqlite3 from 'better-sqlite3';
import { type LedgerCount, type LedgerEntry, type LedgerEntryDetail, type LedgerFacets, type LedgerFilter, type LedgerPage, type LedgerPosition } from '../../../src-preload/contract';
import { DomainError } from '../base/domainError';
import { LruMap } from '../base/lruMap';
import type { Database } from '../store/database';
import { compileFilter, type CompiledFilter, type SqlValue } from './ledgerFilterSql';

/**
 * Read-only queries for the ledger view, fast enough for a million entries.
 *
 * Every query walks the ledger in aligned windows of `windowSize` seqs (newest first, or oldest first for
 * `newerThan`) and runs its SQL inside one window at a time, so no statement reads more than one window's rows and
 * the host yields to the event loop between them: a search that has to read every payload still never holds up a
 * terminal or another call for long. The ledger is append-only, so what a filter matches inside a window whose seqs
 * all exist never changes: window counts (and each window's time span) are cached, which makes jumping to any index
 * cheap after the first count and lets a count resume where an earlier, time-boxed one stopped.
 *
 * Text search is a LIKE over the payloads, window by window, not an FTS5 (trigram) index: the index makes every
 * append slower and the database larger, and counting a common term through it is no faster than the scan. The
 * figures at 1M entries: docs/performance.md#ledger.
 */

export interface LedgerQueryOptions {
  /** Seqs per window (the unit of work between yields, and of caching). */
  windowSize?: number;
  /** How long `count` may work before it answers with an estimate. */
  countBudgetMs?: number;
  /** At most this many distinct values per facet; past it type patterns are matched with LIKE instead. */
  facetLimit?: number;
}

interface Window {
  lo: number;
  hi: number;
}

interface TimeSpan {
  min: number;
  max: number;
}

interface EntryRow {
  seq: number;
  ts: number;
  type: string;
  actor: string;
  session_id: string | null;
  payload: string;
}

const COLUMNS = 'seq, ts, type, actor, session_id, payload';
/** Work at most this long between yields to the event loop. */
const SLICE_MS = 8;

const toEntry = (row: EntryRow): LedgerEntry => ({
  seq: row.seq,
  ts: row.ts,
  type: row.type,
  actor: row.actor,
  sessionId: row.session_id,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
});

/** Cooperative time slicing: call after each statement; it yields once the slice is used up. */
function slicer(): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
}

export class LedgerQuery {
  private readonly windowSize: number;
  private readonly countBudgetMs: number;
  private readonly facetLimit: number;
  /** `${filter key}|${lo}|${hi}` → matches in that window. */
  private readonly counts = new LruMap<string, number>(100_000);
  /** `${lo}|${hi}` → the window's time span, null when it holds no entries. */
  private readonly spans = new LruMap<string, TimeSpan | null>(20_000);
  private readonly statements = new LruMap<string, BetterSqlite3.Statement>(200);

  constructor(
    private readonly db: Database,
    options: LedgerQueryOptions = {},
  ) {
    this.windowSize = options.windowSize ?? 32_768;
    this.countBudgetMs = options.countBudgetMs ?? 100;
    this.facetLimit = options.facetLimit ?? 2000;
  }

  /** The newest seq stored (0 for an empty ledger). */
  head(): number {
    return (this.prepare('SELECT max(seq) AS head FROM audit_ledger').get() as { head: number | null }).head ?? 0;
  }

  /** One page of matches, newest first, from the list of matches with seq <= untilSeq. */
  async page(request: { filter: LedgerFilter; untilSeq?: number; from: LedgerPosition; limit: number }): Promise<LedgerPage> {
    const untilSeq = this.snapshot(request.untilSeq);
    const filter = this.compile(request.filter);
    const entries: LedgerEntry[] = [];
    if (filter.matchesNothing) return { entries, untilSeq };
    const breathe = slicer();
    const { from, limit } = request;

    if (from.kind === 'newerThan') {
      for (const window of this.windowsOldestFirst(from.seq, untilSeq)) {
        entries.push(...this.selectNoting(filter, window, 'ASC', limit - entries.length, 0));
        if (entries.length === limit) break;
        await breathe();
      }
      return { entries: entries.reverse(), untilSeq };
    }

    let skip = from.kind === 'index' ? from.index : 0;
    const top = from.kind === 'olderThan' ? Math.min(untilSeq, from.seq - 1) : untilSeq;
    for (const window of this.windowsNewestFirst(0, top)) {
      if (skip > 0) {
        const matches = this.countWindow(filter, window);
        if (skip >= matches) {
          skip -= matches;
          await breathe();
          continue;
        }
      }
      entries.push(...this.selectNoting(filter, window, 'DESC', limit - entries.length, skip));
      skip = 0;
      if (entries.length === limit) break;
      await breathe();
    }
    return { entries, untilSeq };
  }

  /**
   * How many entries with afterSeq < seq <= untilSeq match. Works for at most the count budget (always at least one
   * window), then extrapolates what is left from the rate seen so far and says the value is not exact.
   */
  async count(request: { filter: LedgerFilter; afterSeq?: number; untilSeq?: number }): Promise<LedgerCount> {
    const untilSeq = this.snapshot(request.untilSeq);
    const afterSeq = Math.min(request.afterSeq ?? 0, untilSeq);
    const filter = this.compile(request.filter);
    if (filter.matchesNothing) return { value: 0, exact: true, untilSeq };
    const breathe = slicer();
    const started = performance.now();
    let value = 0;
    let countedSeqs = 0;
    let uncountedSeqs = 0;
    let countedNow = 0;
    for (const window of this.windowsNewestFirst(afterSeq, untilSeq)) {
      const size = window.hi - window.lo + 1;
      const cached = this.counts.get(this.countKey(filter, window));
      if (cached !== undefined) {
        value += cached;
        countedSeqs += size;
      } else if (countedNow > 0 && performance.now() - started > this.countBudgetMs) {
        uncountedSeqs += size;
      } else {
        value += this.countWindow(filter, window);
        countedSeqs += size;
        countedNow++;
        await breathe();
      }
    }
    if (uncountedSeqs === 0) return { value, exact: true, untilSeq };
    return { value: value + Math.round((uncountedSeqs * value) / countedSeqs), exact: false, untilSeq };
  }

  /** Distinct types, actors and sessions, each found by one index seek per value (a loose index scan). */
  facets(): LedgerFacets {
    const types = this.distinct('type');
    const actors = this.distinct('actor');
    const sessions = this.distinct('session_id');
    const noSession = this.prepare('SELECT 1 FROM audit_ledger WHERE session_id IS NULL LIMIT 1').get() !== undefined;
    return {
      types: types.values,
      actors: actors.values,
      sessions: sessions.values,
      noSession,
      truncated: types.truncated || actors.truncated || sessions.truncated,
      head: this.head(),
    };
  }

  entry(seq: number): LedgerEntryDetail {
    const row = this.prepare(`SELECT ${COLUMNS}, entry_hash, prev_hash, payload_commit FROM audit_ledger WHERE seq = ?`).get(seq) as
      | (EntryRow & { entry_hash: Buffer; prev_hash: Buffer; payload_commit: Buffer })
      | undefined;
    if (!row) throw new DomainError('not_found', `the ledger has no entry ${seq} (it holds entries 1 to ${this.head()})`);
    return {
      ...toEntry(row),
      entryHash: row.entry_hash.toString('hex'),
      prevHash: row.prev_hash.toString('hex'),
      payloadCommit: row.payload_commit.toString('hex'),
    };
  }

  private snapshot(untilSeq: number | undefined): number {
    const head = this.head();
    return untilSeq === undefined ? head : Math.min(untilSeq, head);
  }

  private compile(filter: LedgerFilter): CompiledFilter {
    if (!filter.types) return compileFilter(filter, undefined);
    const types = this.distinct('type');
    return compileFilter(filter, types.truncated ? undefined : types.values);
  }

  /** Windows covering (afterSeq, untilSeq], newest first, aligned to multiples of the window size. */
  private *windowsNewestFirst(afterSeq: number, untilSeq: number): Generator<Window> {
    for (let hi = untilSeq; hi > afterSeq; ) {
      const lo = Math.max(afterSeq + 1, Math.floor((hi - 1) / this.windowSize) * this.windowSize + 1);
      yield { lo, hi };
      hi = lo - 1;
    }
  }

  private *windowsOldestFirst(afterSeq: number, untilSeq: number): Generator<Window> {
    for (let lo = afterSeq + 1; lo <= untilSeq; ) {
      const hi = Math.min(untilSeq, Math.ceil(lo / this.windowSize) * this.windowSize);
      yield { lo, hi };
      lo = hi + 1;
    }
  }

  private countKey(filter: CompiledFilter, window: Window): string {
    return `${filter.key}|${window.lo}|${window.hi}`;
  }

  private countWindow(filter: CompiledFilter, window: Window): number {
    const key = this.countKey(filter, window);
    const cached = this.counts.get(key);
    if (cached !== undefined) return cached;
    // Without conditions every seq in the window is an entry: the table's trigger keeps seqs gapless.
    if (filter.conditions.length === 0 && !filter.time) return window.hi - window.lo + 1;
    const where = this.where(filter, window);
    const count = where ? (this.prepare(`SELECT count(*) AS n FROM audit_ledger WHERE ${where.sql}`).get(...where.args) as { n: number }).n : 0;
    this.counts.set(key, count);
    return count;
  }

  /**
   * `select`, and when it comes back short it has read the whole window: note the window's count on the way, so a
   * search whose first page had to read every window is counted without reading them again.
   */
  private selectNoting(filter: CompiledFilter, window: Window, order: 'ASC' | 'DESC', limit: number, offset: number): LedgerEntry[] {
    const entries = this.select(filter, window, order, limit, offset);
    if (entries.length < limit && (offset === 0 || entries.length > 0)) this.counts.set(this.countKey(filter, window), offset + entries.length);
    return entries;
  }

  private select(filter: CompiledFilter, window: Window, order: 'ASC' | 'DESC', limit: number, offset: number): LedgerEntry[] {
    const where = this.where(filter, window);
    if (!where) return [];
    const sql = `SELECT ${COLUMNS} FROM audit_ledger WHERE ${where.sql} ORDER BY seq ${order} LIMIT ? OFFSET ?`;
    return (this.prepare(sql).all(...where.args, limit, offset) as EntryRow[]).map(toEntry);
  }

  /**
   * The WHERE clause for one window, or null when the window cannot hold a match. The time condition is dropped
   * where the window's own span lies inside the range (then indexes on the other columns do all the work) and the
   * `+` keeps SQLite from choosing a time-ordered scan over the seq range.
   */
  private where(filter: CompiledFilter, window: Window): { sql: string; args: SqlValue[] } | null {
    const conditions = ['seq BETWEEN ? AND ?', ...filter.conditions];
    const args: SqlValue[] = [window.lo, window.hi, ...filter.args];
    if (filter.time) {
      const span = this.span(window);
      if (!span || span.max < filter.time.from || span.min >= filter.time.to) return null;
      if (span.min < filter.time.from || span.max >= filter.time.to) {
        conditions.push('+ts >= ?', '+ts < ?');
        args.push(filter.time.from, filter.time.to);
      }
    }
    return { sql: conditions.join(' AND '), args };
  }

  private span(window: Window): TimeSpan | null {
    const key = `${window.lo}|${window.hi}`;
    const cached = this.spans.get(key);
    if (cached !== undefined) return cached;
    const row = this.prepare('SELECT min(ts) AS min, max(ts) AS max FROM audit_ledger WHERE seq BETWEEN ? AND ?').get(window.lo, window.hi) as {
      min: number | null;
      max: number | null;
    };
    const span = row.min === null || row.max === null ? null : { min: row.min, max: row.max };
    this.spans.set(key, span);
    return span;
  }

  private distinct(column: 'type' | 'actor' | 'session_id'): { values: string[]; truncated: boolean } {
    const first = this.prepare(`SELECT min(${column}) AS v FROM audit_ledger`);
    const next = this.prepare(`SELECT min(${column}) AS v FROM audit_ledger WHERE ${column} > ?`);
    const values: string[] = [];
    for (let row = first.get() as { v: string | null }; row.v !== null; row = next.get(row.v) as { v: string | null }) {
      if (values.length === this.facetLimit) return { values, truncated: true };
      values.push(row.v);
    }
    return { values, truncated: false };
  }

  private prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
