import { useEffect } from 'react';
import { useAttention, type AttentionState, type WaitingItem } from '../../ui/attention/attentionStore';
import { goToWaiting } from '../../ui/attention/goToWaiting';
import { useSessions } from '../../ui/sessionsStore';
import { notifier } from './notifier';
import { sessionOnScreen, windowWatched } from './windowAttention';

function allItems(state: AttentionState): WaitingItem[] {
  return Object.values(state.waiting).flatMap((kinds) => [...(kinds.consent ?? []), ...(kinds.checkpoint ?? [])]);
}

function sessionName(sessionId: string): string {
  return useSessions.getState().sessions.find((s) => s.id === sessionId)?.name ?? 'a session';
}

/**
 * A desktop notification for each new thing that waits, unless the user is looking at its card already (the window
 * focused on its session). Each one notifies once for the page's lifetime: a reconnect's replay does not repeat it.
 */
export function useWaitingNotifications(): void {
  useEffect(() => {
    const notified = new Set<string>();
    const consider = (state: AttentionState): void => {
      for (const item of allItems(state)) {
        const key = `${item.kind}:${item.id}`;
        if (notified.has(key)) continue;
        notified.add(key);
        if (windowWatched() && sessionOnScreen(item.sessionId)) continue;
        notifier().notify({
          title: item.kind === 'consent' ? `Permission needed in ${sessionName(item.sessionId)}` : `A question in ${sessionName(item.sessionId)}`,
          body: item.summary,
          tag: key,
          onClick: () => goToWaiting(item),
        });
      }
    };
    consider(useAttention.getState());
    return useAttention.subscribe(consider);
  }, []);
}
