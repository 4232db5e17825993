import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ConnectionInfo, ProviderInfo, VaultStatus } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useLiveList } from '../../ui/useLiveList';

export interface CredentialsState {
  status: VaultStatus | null;
  providers: ProviderInfo[];
  connections: ConnectionInfo[] | null;
  error: string | null;
  reload(): void;
}

/** Expiry shown as "expired" and a keychain locked later are not events: read again now and then. */
const RELIST_MS = 30_000;

/**
 * The keychain's status and the providers, fetched on every (re)connection, again whenever a connection changes and
 * now and then; the connections themselves are a live list (credentials.watch), handles included.
 */
export function useCredentials(): CredentialsState {
  const client = useConnection((s) => s.client);
  const live = useLiveList('credentials.watch', {});
  const [status, setStatus] = useState<VaultStatus | null>(null);
  const [providers, setProviders] = useState<ProviderInfo[]>([]);
  const [error, setError] = useState<string | null>(null);

  const readStatus = useCallback(() => {
    if (!client) return;
    Promise.all([client.call('credentials.status', {}), client.call('credentials.providers', {})])
      .then(([nextStatus, nextProviders]) => {
        setStatus(nextStatus);
        setProviders(nextProviders);
        setError(null);
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [client]);

  const { refresh } = live;
  const reload = useCallback(() => {
    readStatus();
    refresh();
  }, [readStatus, refresh]);

  // A connection changing can change what the keychain says (a first key stored, a keychain that refused).
  useEffect(readStatus, [readStatus, live.items]);
  useEffect(() => {
    const timer = setInterval(reload, RELIST_MS);
    return () => clearInterval(timer);
  }, [reload]);

  const connections = useMemo(() => (live.loaded ? [...live.items] : null), [live.loaded, live.items]);
  return { status, providers, connections, error: error ?? live.error, reload };
}
