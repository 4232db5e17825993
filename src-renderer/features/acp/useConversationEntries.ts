import { useEffect, useRef, useState } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { applyEntry, newConversationModel, type ConversationModel } from './conversationModel';

/**
 * A conversation's entries (acp.updates) folded into its model as they come, redrawn at most once per animation
 * frame: an agent may stream thousands of chunks a second, and folding one is cheap while drawing one is not. After
 * a reconnection it asks only for the entries after the last one it has.
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
    const draw = (): void => {
      frame = null;
      setDrawn(folded.version);
    };
    setError(null);
    const subscription = client.subscribe(
      'acp.updates',
      { conversationId, sinceSeq: folded.lastSeq },
      {
        onItem: (entry) => {
          applyEntry(folded, entry);
          frame ??= requestAnimationFrame(draw);
        },
        // A closed connection is the connection's to report (the status bar); a new one subscribes again.
        onEnd: (e) => {
          if (e && e.code !== 'CLOSED') setError(errorMessage(e));
        },
      },
    );
    return () => {
      subscription.dispose();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [client, conversationId]);
  return { model: model.current, error };
}
