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

/** Holders of handles are issued without a change event; a slow poll keeps "which agents hold handles" current. */
const HANDLE_POLL_MS = 10_000;

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
    // "still opening" turns into an answer once the keychain replies; handle holders change without an event.
    const timer = setInterval(reload, HANDLE_POLL_MS);
    return () => {
      clearInterval(timer);
      subscription.dispose();
    };
  }, [client, reload]);

  return { status, providers, connections, error, reload };
}
