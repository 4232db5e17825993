import type { RunItem } from '../../../src-preload/contract/exec';
import type { Disposable } from '../../../src-preload/rpc';
import type { ExecStore } from './execStore';
import type { RunItemWriter } from './runItemWriter';

/** Where a feed delivers: the shape of the bridge's StreamSink, so a stream handler passes its sink as is. */
export interface RunItemSink {
  push(item: RunItem): void;
  /** The run has ended and its last item was delivered. */
  end(): void;
  onFlowControl(pause: () => void, resume: () => void): void;
  readonly isPaused: boolean;
  readonly isClosed: boolean;
}

/** At most this many items are read from the table per step while catching up. */
const PAGE = 256;

/**
 * A run's items for one reader, at the reader's pace: replayed from the table from `sinceSeq`, then live. While the
 * reader is paused (behind on credit) nothing is pushed; on resume the feed reads what it missed from the table, so a
 * 10 MB replay or a flooding run never piles up in memory. Items reach the table before listeners hear of them, so
 * switching between reading the table and following live items neither skips nor repeats one. Ends the sink after
 * the run's `exit` item.
 */
export class RunItemFeed implements Disposable {
  private last: number;
  /**
   * Items to read next: as many as the reader took last time before it paused (doubling while it takes whole
   * pages). A reader short of credit pauses the feed after an item or two; a whole page read at every resume would
   * be mostly dropped and read again at the next one, so a flooding run shown in a run card would reread most of a
   * page of large items from SQLite each time the card returned credit (docs/performance.md#run-card).
   */
  private pageSize = PAGE;
  private ended = false;
  private catchingUp = false;
  private again = false;
  private readonly live: Disposable;

  constructor(
    private readonly runId: string,
    sinceSeq: number,
    private readonly sink: RunItemSink,
    private readonly store: ExecStore,
    items: RunItemWriter,
  ) {
    this.last = sinceSeq;
    sink.onFlowControl(
      () => undefined,
      () => this.catchUp(),
    );
    this.live = items.onDidAppend(({ runId, item }) => {
      if (runId !== this.runId || item.seq <= this.last) return;
      // Behind (paused, or items of this turn came while catching up): the table has them, read in order from there.
      if (item.seq !== this.last + 1 || sink.isPaused) return this.catchUp();
      this.deliver(item);
    });
    items.flush();
    this.catchUp();
  }

  private catchUp(): void {
    // A push can hand credit back at once (a synchronous transport), resuming the feed from inside this loop: the
    // inner call only asks for another round, so items go out once and in order.
    if (this.catchingUp) {
      this.again = true;
      return;
    }
    this.catchingUp = true;
    try {
      do {
        this.again = false;
        this.readPages();
      } while (this.again);
    } finally {
      this.catchingUp = false;
    }
  }

  private readPages(): void {
    while (!this.ended && !this.sink.isPaused && !this.sink.isClosed) {
      const page = this.store.items(this.runId, this.last, this.pageSize);
      if (page.length === 0) return;
      let taken = 0;
      for (const item of page) {
        this.deliver(item);
        taken++;
        if (this.ended || this.sink.isPaused || this.sink.isClosed) {
          if (taken < page.length) this.pageSize = taken;
          return;
        }
      }
      this.pageSize = Math.min(PAGE, this.pageSize * 2);
    }
  }

  private deliver(item: RunItem): void {
    if (item.seq <= this.last) return;
    this.last = item.seq;
    this.sink.push(item);
    if (item.kind === 'event' && item.data === 'exit') {
      this.ended = true;
      this.live.dispose();
      this.sink.end();
    }
  }

  dispose(): void {
    this.ended = true;
    this.live.dispose();
  }
}
