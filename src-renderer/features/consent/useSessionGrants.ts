import { useEffect } from 'react';
import type { ConsentGrant } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { useConsent } from './consentStore';

const none: ConsentGrant[] = [];

/** The session's revocable grants: changes subscribed first, then the list fetched, so nothing in between is missed. */
export function useSessionGrants(sessionId: string): ConsentGrant[] {
  const client = useConnection((s) => s.client);
  useEffect(() => {
    if (!client) return;
    const { applyGrantChange, setGrants } = useConsent.getState();
    const changes: ConsentGrant[] = [];
    let listed = false;
    const subscription = client.subscribe(
      'consent.grantChanges',
      { sessionId },
      {
        onItem(change) {
          if (listed) applyGrantChange(change);
          else changes.push(change.grant);
        },
      },
    );
    let cancelled = false;
    client
      .call('consent.grants', { sessionId })
      .then((grants) => {
        if (cancelled) return;
        // Changes that arrived while the list was on its way are newer than it: they win.
        const byId = new Map(grants.map((g) => [g.id, g]));
        for (const grant of changes) byId.set(grant.id, grant);
        setGrants(sessionId, [...byId.values()].sort((a, b) => a.grantedAt - b.grantedAt));
        listed = true;
      })
      .catch(() => {
        // Lost connection: the next client lists again.
      });
    return () => {
      cancelled = true;
      subscription.dispose();
    };
  }, [client, sessionId]);
  return useConsent((s) => s.grants[sessionId] ?? none);
}
