import type { LedgerEntry, LedgerFilter, LedgerPosition } from '../../../src-preload/contract';
import type { OmniClient } from '../../bridge/connectionStore';

/** Rows asked for at once; a screen holds ~30. */
const MAX_REQUEST = 150;
/** Rows kept around the viewport beyond what is visible, so scrolling a little never shows a gap. */
const OVERSCAN = 60;
const MAX_IN_FLIGHT = 3;
/**
 * After a jump (the scrollbar dragged, End pressed) rows are fetched once the position holds this long: a drag
 * across a million rows would otherwise ask for pages at every frame and get them after it has moved on.
 */
const SETTLE_MS = 60;
/** Cached rows beyond this are dropped, farthest from the viewport first. */
const MAX_CACHED = 4000;

export interface PagerEvents {
  /** Rows arrived (or were dropped): re-render. */
  onRows(): void;
  /** The list turned out to end at `total` rows (a short page): a count that was an estimate is now exact. */
  onEnd(total: number): void;
  onError(message: string): void;
}

/**
 * Loads the rows of one filtered ledger snapshot on demand, by index, and caches them. A gap next to a cached row is
 * fetched by keyset (the rows just below or above that entry's seq, cheap for the host); a gap with no cached
 * neighbour, after a jump, by index. When new entries are shown on top (`shift`), every index moves down; requests
 * still in flight are moved by the same amount when they land.
 */
export class LedgerPager {
  private readonly rows = new Map<number, LedgerEntry>();
  private readonly pending = new Set<number>();
  private inFlight = 0;
  private shifted = 0;
  private wanted: { first: number; last: number } = { first: 0, last: 0 };
  private settling: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly client: OmniClient,
    private readonly filter: LedgerFilter,
    private untilSeq: number,
    private total: number,
    private readonly events: PagerEvents,
  ) {}

  get snapshot(): number {
    return this.untilSeq;
  }

  entryAt(index: number): LedgerEntry | undefined {
    return this.rows.get(index);
  }

  /** Rows put in by the caller (the first page, fetched before the pager existed). */
  seed(entries: readonly LedgerEntry[]): void {
    entries.forEach((entry, i) => this.rows.set(i, entry));
  }

  setTotal(total: number): void {
    this.total = total;
    this.load();
  }

  /** The viewport shows rows first..last: load what is missing around them (after a jump, once it settles). */
  want(first: number, last: number): void {
    const jumped = Math.abs(first - this.wanted.first) > last - first + 1 + OVERSCAN;
    this.wanted = { first, last };
    if (this.disposed) return;
    if (jumped || this.settling !== undefined) {
      clearTimeout(this.settling);
      this.settling = setTimeout(() => {
        this.settling = undefined;
        this.load();
      }, SETTLE_MS);
      return;
    }
    this.load();
  }

  private load(): void {
    if (this.disposed) return;
    const { first, last } = this.wanted;
    const from = Math.max(0, first - OVERSCAN);
    const to = Math.min(this.total - 1, last + OVERSCAN);
    // Visible rows first, then the overscan below, then above.
    const order = [
      [Math.max(first, from), Math.min(last, to)],
      [last + 1, to],
      [from, first - 1],
    ];
    for (const [a, b] of order) {
      for (let index = a; index <= b && this.inFlight < MAX_IN_FLIGHT; index++) {
        if (this.rows.has(index) || this.pending.has(index)) continue;
        let end = index;
        while (end < b && end - index + 1 < MAX_REQUEST && !this.rows.has(end + 1) && !this.pending.has(end + 1)) end++;
        this.fetch(index, end);
        index = end;
      }
    }
    this.evict();
  }

  /** `added` matching entries now sit above the old newest one: move every row down and take the new snapshot. */
  shift(untilSeq: number, added: number): void {
    this.untilSeq = untilSeq;
    if (added === 0) return;
    const moved = [...this.rows].map(([index, entry]) => [index + added, entry] as const);
    this.rows.clear();
    for (const [index, entry] of moved) this.rows.set(index, entry);
    const pending = [...this.pending];
    this.pending.clear();
    for (const index of pending) this.pending.add(index + added);
    this.shifted += added;
    this.total += added;
    this.events.onRows();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.settling);
  }

  private fetch(first: number, last: number): void {
    const count = last - first + 1;
    const below = this.rows.get(first - 1);
    const above = this.rows.get(last + 1);
    const from: LedgerPosition = below
      ? { kind: 'olderThan', seq: below.seq }
      : above
        ? { kind: 'newerThan', seq: above.seq }
        : { kind: 'index', index: first };
    const shiftedAtStart = this.shifted;
    const untilSeq = this.untilSeq;
    for (let i = first; i <= last; i++) this.pending.add(i);
    this.inFlight++;
    this.client
      .call('ledger.query', { filter: this.filter, untilSeq, from, limit: count })
      .then(
        (page) => {
          this.inFlight--;
          if (this.disposed) return;
          const moved = this.shifted - shiftedAtStart;
          const start = from.kind === 'newerThan' ? last - page.entries.length + 1 + moved : first + moved;
          for (let i = first + moved; i <= last + moved; i++) this.pending.delete(i);
          page.entries.forEach((entry, i) => this.rows.set(start + i, entry));
          // A short page shows where the list ends, if it holds a row or starts right below a known one. An empty
          // page at an index (a jump past an estimated total) only says the end is somewhere above: the count says where.
          const endsHere = page.entries.length < count && (page.entries.length > 0 || from.kind === 'olderThan' || first === 0);
          if (endsHere && from.kind !== 'newerThan') this.events.onEnd(first + moved + page.entries.length);
          this.events.onRows();
          // Whatever the viewport wants now (it may have moved on while this page loaded). After a failure the
          // next scroll or update asks again, rather than a loop of retries against a host that is not answering.
          this.load();
        },
        (error: unknown) => {
          this.inFlight--;
          if (this.disposed) return;
          const moved = this.shifted - shiftedAtStart;
          for (let i = first + moved; i <= last + moved; i++) this.pending.delete(i);
          this.events.onError(error instanceof Error ? error.message : String(error));
        },
      );
  }

  private evict(): void {
    if (this.rows.size <= MAX_CACHED) return;
    const centre = (this.wanted.first + this.wanted.last) / 2;
    const far = [...this.rows.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
    for (const index of far.slice(0, this.rows.size - MAX_CACHED / 2)) this.rows.delete(index);
  }
}
