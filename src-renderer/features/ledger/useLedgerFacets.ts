import { useEffect } from 'react';
import type { LedgerEntry } from '../../../src-preload/contract';
import { useConnection, type OmniClient } from '../../bridge/connectionStore';
import { useLedger } from './ledgerStore';

let refreshing: Promise<void> | null = null;

async function refreshFacets(client: OmniClient): Promise<void> {
  if (refreshing) return refreshing;
  refreshing = client
    .call('ledger.facets', {})
    .then((facets) => useLedger.setState({ facets }))
    .catch(() => undefined) // The menus keep what they had; the list reports its own errors.
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** A live entry with a type, actor or session the menus do not offer yet: fetch the menus again. */
export function noteLedgerEntry(client: OmniClient, entry: LedgerEntry): void {
  const facets = useLedger.getState().facets;
  if (!facets) return;
  const known =
    facets.types.includes(entry.type) &&
    facets.actors.includes(entry.actor) &&
    (entry.sessionId === null ? facets.noSession : facets.sessions.includes(entry.sessionId));
  if (!known) void refreshFacets(client);
}

/** Loads what the filter menus offer, once per connection. */
export function useLedgerFacets(): void {
  const client = useConnection((s) => s.client);
  useEffect(() => {
    if (client) void refreshFacets(client);
  }, [client]);
}
