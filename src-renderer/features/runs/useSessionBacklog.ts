import { useEffect, useRef } from 'react';
import type { BacklogMessage } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { useRuns } from './runsStore';

const none: BacklogMessage[] = [];
/** A burst of items (a watcher firing on many lines, a flood of output) is one backlog fetch per this long, at most. */
const REFETCH_DELAY_MS = 300;
/** Delivery to the agent happens on its turn, which no stream announces: look again this often while any wait. */
const PENDING_RECHECK_MS = 5000;

/**
 * The session's backlog (watcher matches waiting for, or delivered to, its agent). There is no backlog stream: a
 * watcher match always writes an event item, which moves its run's last_seq, so the backlog is fetched again soon
 * after the runs' item counts move, and every few seconds while a message is still pending.
 */
export function useSessionBacklog(sessionId: string): BacklogMessage[] {
  const client = useConnection((s) => s.client);
  const itemsWritten = useRuns((s) => (s.bySession[sessionId] ?? []).reduce((sum, run) => sum + run.last_seq, 0));
  const messages = useRuns((s) => s.backlog[sessionId] ?? none);
  const anyPending = messages.some((m) => !m.delivered);
  const fetchSoon = useRef<() => void>(() => undefined);

  useEffect(() => {
    if (!client) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fetchBacklog = (): void => {
      timer = undefined;
      client
        .call('exec.backlog', { sessionId })
        .then((list) => {
          if (!cancelled) useRuns.getState().setBacklog(sessionId, list);
        })
        .catch(() => {
          // A lost connection: the next client fetches again.
        });
    };
    // A throttle, not a debounce: output that never pauses must not postpone the fetch for ever.
    fetchSoon.current = () => {
      if (timer === undefined && !cancelled) timer = setTimeout(fetchBacklog, REFETCH_DELAY_MS);
    };
    fetchBacklog();
    return () => {
      cancelled = true;
      clearTimeout(timer);
      fetchSoon.current = () => undefined;
    };
  }, [client, sessionId]);

  useEffect(() => {
    if (itemsWritten > 0) fetchSoon.current();
  }, [itemsWritten]);

  useEffect(() => {
    if (!anyPending) return;
    const recheck = setInterval(() => fetchSoon.current(), PENDING_RECHECK_MS);
    return () => clearInterval(recheck);
  }, [anyPending]);

  return messages;
}
