import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { applyEntry, newConversationModel, type ConversationModel } from './conversationModel';

/** Entries the host may send ahead of what the card has drawn. */
const CREDIT = 4000;
/** Where no animation frame comes (a page in the background), the card still takes entries at this pace. */
const FALLBACK_MS = 250;
/** A new item is drawn at once unless the card drew less than this long ago (then it waits for the frame). */
const MIN_GAP_MS = 4;
/**
 * An item that only grows (a reply streaming in) is redrawn at most this often, about 30 times a second, as the
 * terminal card draws its output: each redraw lays out the new text, and at thousands of chunks a second redrawing at
 * every animation frame left the page no frame of its own (scrolling, typing) and fewer frames in all.
 */
const GROW_REDRAW_MS = 33;

/**
 * A conversation's entries (acp.updates) folded into its model as they come, redrawn in an animation frame at most
 * every GROW_REDRAW_MS: an agent may stream thousands of chunks a second, and folding one is cheap while drawing one
 * is not. The frame's draw commits in the animation frame itself (flushSync), so it is painted in that frame, not the
 * next.
 * An entry that starts a new item (the prompt, a reply's first chunk, a tool call) is drawn as soon as its message
 * is folded: the first chunk is what the user waits for, and the next frame may be a while away on a busy page;
 * what only grows an item waits for the frame. Credit goes back at each draw and every quarter window folded, not per
 * entry: a few small frames to the host instead of thousands a second, and the host is held back only when the
 * page cannot even fold what comes. After a reconnection, or a stream the host cut off for falling behind, it asks
 * only for the entries after the last one it has.
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
    let soon = false;
    let drawnAt = -Infinity;
    let unacknowledged = 0;
    let subscription: { ack(weight: number): void; dispose(): void } | null = null;
    let disposed = false;
    const drawOnFrame = (now: number): void => {
      frame = null;
      if (now - drawnAt < GROW_REDRAW_MS) {
        frame = requestAnimationFrame(drawOnFrame);
        return;
      }
      draw();
    };
    const draw = (): void => {
      if (frame !== null) cancelAnimationFrame(frame);
      if (fallback !== null) clearTimeout(fallback);
      frame = null;
      fallback = null;
      soon = false;
      if (disposed) return;
      drawnAt = performance.now();
      flushSync(() => setDrawn(folded.version));
      acknowledge();
    };
    const acknowledge = (): void => {
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
            const items = folded.items.length;
            applyEntry(folded, entry);
            if (++unacknowledged >= CREDIT / 4) acknowledge();
            if (soon) return;
            if (folded.items.length !== items && performance.now() - drawnAt >= MIN_GAP_MS) {
              // After the rest of this message's entries are folded, before anything else runs.
              soon = true;
              queueMicrotask(draw);
              return;
            }
            frame ??= requestAnimationFrame(drawOnFrame);
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
