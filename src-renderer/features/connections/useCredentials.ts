import { useCallback, useEffect, useState } from 'react';
import type { ConnectionInfo, ProviderInfo, VaultStatus } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

export interface CredentialsState {
  status: VaultStatus | null;
  providers: ProviderInfo[];
  connections: ConnectionInfo[] | null;
  error: string | null;
  reload(): void;
}

/** A safety net only: every change (handles included) comes as an event; this catches up after a missed one. */
const RELIST_MS = 30_000;

/**
 * The keychain's status, the providers and the connections, fetched on every (re)connection and again whenever the
 * host says a connection changed. Changes are subscribed before the first fetch, so none is missed in between.
 */
export function useCredentials(): CredentialsState {
  const client = useConnection((s) => s.client);
  const [status, setStatus] = useState<VaultStatus | null>(null);
  const [providers, setProviders] = useState<ProviderInfo[]>([]);
  const [connections, setConnections] = useState<ConnectionInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(() => {
    if (!client) return;
    Promise.all([client.call('credentials.status', {}), client.call('credentials.providers', {}), client.call('credentials.list', {})])
      .then(([nextStatus, nextProviders, list]) => {
        setStatus(nextStatus);
        setProviders(nextProviders);
        setConnections(list);
        setError(null);
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [client]);

  useEffect(() => {
    if (!client) return;
    const subscription = client.subscribe('credentials.changes', {}, { onItem: reload });
    reload();
    // Expiry shown as "expired" and a keychain locked later are not events: list again now and then.
    const timer = setInterval(reload, RELIST_MS);
    return () => {
      clearInterval(timer);
      subscription.dispose();
    };
  }, [client, reload]);

  return { status, providers, connections, error, reload };
}
