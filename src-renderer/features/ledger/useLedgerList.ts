import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { LedgerEntry, LedgerFilter } from '../../../src-preload/contract';
import { useConnection, type OmniClient } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { LedgerPager } from './ledgerPager';
import { useLedger } from './ledgerStore';
import { noteLedgerEntry } from './useLedgerFacets';

const FIRST_PAGE = 100;
/** Live entries come in bursts: ask the host about them at most this often. */
const LIVE_CHECK_MS = 80;

export interface LedgerList {
  entryAt(index: number): LedgerEntry | undefined;
  /** The list shows rows first..last. */
  want(first: number, last: number): void;
  /** The list is scrolled to the top (new entries may appear live) or away from it (they are only counted). */
  setAtTop(atTop: boolean): void;
  /** Shows the entries counted while away from the top (the view scrolls up itself). */
  showNew(): void;
}

/** Counts until the host says exact, calling `onValue` with each estimate on the way. */
async function countExactly(
  client: OmniClient,
  request: { filter: LedgerFilter; afterSeq?: number; untilSeq: number },
  isCancelled: () => boolean,
  onValue?: (value: number, exact: boolean) => void,
): Promise<number | null> {
  for (;;) {
    const count = await client.call('ledger.count', request);
    if (isCancelled()) return null;
    onValue?.(count.value, count.exact);
    if (count.exact) return count.value;
  }
}

/**
 * The list of ledger entries for the current filter: the first page, then the total (an estimate first on a big
 * ledger), pages around the viewport on demand (LedgerPager), and the live tail. The list is a snapshot (entries up
 * to a seq), so indices stay put while entries arrive; at the top the snapshot moves up as they come and they show
 * at once, scrolled away they are only counted ("N new entries") until the user goes back up.
 */
export function useLedgerList(): LedgerList {
  const client = useConnection((s) => s.client);
  const filter = useLedger((s) => s.filter);
  const pager = useRef<LedgerPager | null>(null);
  const atTop = useRef(true);
  const checkNow = useRef<(force: boolean) => void>(() => undefined);

  useEffect(() => {
    if (!client) return;
    let cancelled = false;
    const isCancelled = (): boolean => cancelled;
    let tail: { dispose(): void } | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let latestSeq = 0;
    let checking = false;
    let checkAgain = false;
    let forceNext = false;
    /** Entries shown on top since the first snapshot: the total is the first snapshot's count plus these. */
    let added = 0;
    const bump = (): void => useLedger.setState((s) => ({ rowsVersion: s.rowsVersion + 1 }));
    const fail = (error: unknown): void => {
      if (!cancelled) useLedger.setState({ error: errorMessage(error) });
    };
    pager.current?.dispose();
    pager.current = null;
    useLedger.setState((s) => ({ total: null, newCount: 0, selected: -1, error: null, rowsVersion: s.rowsVersion + 1 }));

    /** Shows `count` matching entries up to `untilSeq` on top, moving every row (and the selection) down. */
    const showOnTop = (untilSeq: number, count: number): void => {
      const list = pager.current;
      if (!list) return;
      list.shift(untilSeq, count);
      if (count === 0) return;
      added += count;
      useLedger.setState((s) => ({
        total: s.total && { ...s.total, value: s.total.value + count },
        selected: s.selected >= 0 ? s.selected + count : -1,
        newCount: 0,
      }));
    };

    /** How many of the entries that arrived match; at the top (or when asked) they are shown, else counted. */
    const check = async (): Promise<void> => {
      const list = pager.current;
      if (!list || checking) {
        checkAgain = true;
        return;
      }
      checking = true;
      try {
        do {
          checkAgain = false;
          const force = forceNext;
          forceNext = false;
          const untilSeq = latestSeq;
          if (untilSeq <= list.snapshot) continue;
          const count = await countExactly(client, { filter, afterSeq: list.snapshot, untilSeq }, isCancelled);
          if (count === null) return;
          if (count === 0 || atTop.current || force) showOnTop(untilSeq, count);
          else useLedger.setState({ newCount: count });
        } while (checkAgain && !cancelled);
      } catch (error) {
        fail(error);
      } finally {
        checking = false;
      }
    };
    checkNow.current = (force) => {
      forceNext ||= force;
      clearTimeout(timer);
      timer = undefined;
      void check();
    };

    void (async () => {
      const first = await client.call('ledger.query', { filter, from: { kind: 'index', index: 0 }, limit: FIRST_PAGE });
      if (cancelled) return;
      const complete = first.entries.length < FIRST_PAGE;
      const list = new LedgerPager(client, filter, first.untilSeq, first.entries.length, {
        onRows: bump,
        onEnd: (total) => {
          list.setTotal(total);
          useLedger.setState({ total: { value: total, exact: true } });
        },
        onError: fail,
      });
      list.seed(first.entries);
      pager.current = list;
      latestSeq = first.untilSeq;
      useLedger.setState({ total: { value: first.entries.length, exact: complete } });
      bump();

      tail = client.subscribe(
        'ledger.tail',
        { afterSeq: first.untilSeq },
        {
          onItem: (entry) => {
            latestSeq = Math.max(latestSeq, entry.seq);
            noteLedgerEntry(client, entry);
            if (timer === undefined) {
              timer = setTimeout(() => {
                timer = undefined;
                void check();
              }, LIVE_CHECK_MS);
            }
          },
        },
      );

      if (complete) return;
      await countExactly(client, { filter, untilSeq: first.untilSeq }, isCancelled, (value, exact) => {
        if (useLedger.getState().total?.exact) return; // The list's end was already found by paging.
        list.setTotal(value + added);
        useLedger.setState({ total: { value: value + added, exact } });
      });
    })().catch(fail);

    return () => {
      cancelled = true;
      clearTimeout(timer);
      tail?.dispose();
      pager.current?.dispose();
      pager.current = null;
      checkNow.current = () => undefined;
    };
  }, [client, filter]);

  const entryAt = useCallback((index: number) => pager.current?.entryAt(index), []);
  const want = useCallback((first: number, last: number) => pager.current?.want(first, last), []);
  const setAtTop = useCallback((value: boolean) => {
    const wasAtTop = atTop.current;
    atTop.current = value;
    // Back at the top with entries waiting: show them.
    if (value && !wasAtTop && useLedger.getState().newCount > 0) checkNow.current(true);
  }, []);
  const showNew = useCallback(() => checkNow.current(true), []);
  return useMemo(() => ({ entryAt, want, setAtTop, showNew }), [entryAt, want, setAtTop, showNew]);
}
