import { useCallback, useEffect } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { mergeEntries, useLedger } from './ledgerStore';

const PAGE_SIZE = 100;

/**
 * Loads the newest page for the current session filter and follows `ledger.tail` live, once per connection and
 * filter. The tail starts at the global head read first, so nothing appended while the page loads is missed.
 * Returns `loadOlder`, which pages backwards with `beforeSeq`.
 */
export function useLedgerFeed(): { loadOlder: () => Promise<void> } {
  const client = useConnection((s) => s.client);
  const sessionFilter = useLedger((s) => s.sessionFilter);

  useEffect(() => {
    if (!client) return;
    let cancelled = false;
    let tail: { dispose(): void } | null = null;
    const sessionId = sessionFilter || undefined;
    useLedger.setState({ loading: true, error: null });

    void (async () => {
      try {
        const head = (await client.call('ledger.list', { limit: 1 }))[0]?.seq ?? 0;
        if (cancelled) return;
        tail = client.subscribe(
          'ledger.tail',
          { afterSeq: head },
          {
            onItem: (entry) => {
              if (sessionId && entry.sessionId !== sessionId) return;
              useLedger.setState((s) => ({ entries: mergeEntries(s.entries, [entry]) }));
            },
          },
        );
        const page = await client.call('ledger.list', { sessionId, limit: PAGE_SIZE });
        if (cancelled) return;
        // Replace, not merge: after a filter change or a reconnect the old list may not match any more.
        useLedger.setState((s) => ({
          entries: mergeEntries(page, s.entries.filter((e) => e.seq > head && (!sessionId || e.sessionId === sessionId))),
          hasOlder: page.length === PAGE_SIZE,
          loading: false,
        }));
      } catch (error) {
        if (!cancelled) useLedger.setState({ loading: false, error: errorMessage(error) });
      }
    })();

    return () => {
      cancelled = true;
      tail?.dispose();
    };
  }, [client, sessionFilter]);

  const loadOlder = useCallback(async () => {
    const { entries, sessionFilter: filter, loading } = useLedger.getState();
    const oldest = entries[entries.length - 1];
    if (!client || loading || !oldest) return;
    useLedger.setState({ loading: true, error: null });
    try {
      const page = await client.call('ledger.list', { sessionId: filter || undefined, beforeSeq: oldest.seq, limit: PAGE_SIZE });
      useLedger.setState((s) => ({ entries: mergeEntries(s.entries, page), hasOlder: page.length === PAGE_SIZE, loading: false }));
    } catch (error) {
      useLedger.setState({ loading: false, error: errorMessage(error) });
    }
  }, [client]);

  return { loadOlder };
}
