import { useEffect, useRef, useState } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { applyEntry, newConversationModel, type ConversationModel } from './conversationModel';

/** Entries the host may send ahead of what the card has drawn. */
const CREDIT = 4000;
/** Where no animation frame comes (a page in the background), the card still takes entries at this pace. */
const FALLBACK_MS = 250;

/**
 * A conversation's entries (acp.updates) folded into its model as they come, redrawn at most once per animation
 * frame: an agent may stream thousands of chunks a second, and folding one is cheap while drawing one is not.
 * Credit goes back once per drawn frame, not per entry: one small frame to the host instead of thousands a second,
 * and a flood is held back by what the page manages to draw. After a reconnection, or a stream the host cut off
 * for falling behind, it asks only for the entries after the last one it has.
 */
export function useConversationEntries(conversationId: string): { model: ConversationModel; error: string | null } {
  const client = useConnection((s) => s.client);
  const model = useRef<ConversationModel>(null);
  model.current ??= newConversationModel();
  const [, setDrawn] = useState(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!client) return;
    const folded = model.current!;
    let frame: number | null = null;
    let fallback: ReturnType<typeof setTimeout> | null = null;
    let unacknowledged = 0;
    let subscription: { ack(weight: number): void; dispose(): void } | null = null;
    let disposed = false;
    const draw = (): void => {
      if (frame !== null) cancelAnimationFrame(frame);
      if (fallback !== null) clearTimeout(fallback);
      frame = null;
      fallback = null;
      setDrawn(folded.version);
      if (unacknowledged > 0) subscription?.ack(unacknowledged);
      unacknowledged = 0;
    };
    const follow = (): void => {
      unacknowledged = 0;
      subscription = client.subscribe(
        'acp.updates',
        { conversationId, sinceSeq: folded.lastSeq },
        {
          onItem: (entry) => {
            applyEntry(folded, entry);
            unacknowledged++;
            frame ??= requestAnimationFrame(draw);
            fallback ??= setTimeout(draw, FALLBACK_MS);
          },
          onEnd: (e) => {
            if (disposed) return;
            // Cut off for falling behind: the entries are stored, so following again from the last one loses none.
            if (e?.code === 'OVERFLOW') follow();
            // A closed connection is the connection's to report (the status bar); a new one subscribes again.
            else if (e && e.code !== 'CLOSED') setError(errorMessage(e));
          },
        },
        { credit: CREDIT, manualAck: true },
      );
    };
    setError(null);
    follow();
    return () => {
      disposed = true;
      subscription?.dispose();
      if (frame !== null) cancelAnimationFrame(frame);
      if (fallback !== null) clearTimeout(fallback);
    };
  }, [client, conversationId]);
  return { model: model.current, error };
}
