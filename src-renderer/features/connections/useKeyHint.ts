import { useCallback, useEffect, useState } from 'react';
import { useConnection } from '../../bridge/connectionStore';

/**
 * The last 4 characters of a connection's API key ("…abcd"), asked of the host when the row shows and again after a
 * rotation (`updatedAt` changes). The host reads it from the keychain each time; nothing here keeps more of the key.
 */
export function useKeyHint(connectionId: string, enabled: boolean, updatedAt: number): string | null {
  const client = useConnection((s) => s.client);
  const [hint, setHint] = useState<string | null>(null);
  const read = useCallback(() => {
    if (!client || !enabled) return;
    client
      .call('credentials.keyHint', { connectionId })
      .then((answer) => setHint(answer.hint))
      .catch(() => setHint(null));
  }, [client, connectionId, enabled]);
  useEffect(read, [read, updatedAt]);
  return hint;
}
