import { useMemo } from 'react';
import type { ConsentGrant } from '../../../src-preload/contract';
import { useSessions } from '../../ui/sessionsStore';
import { useNow } from '../../ui/useNow';
import { GrantRow } from './GrantRow';
import { useSessionGrants } from './useSessionGrants';

/** The grants grouped by the agent they were given to, agents in the order of their first grant. */
function byAgent(grants: readonly ConsentGrant[]): [string, ConsentGrant[]][] {
  const groups = new Map<string, ConsentGrant[]>();
  for (const grant of grants) {
    const group = groups.get(grant.agentId);
    if (group) group.push(grant);
    else groups.set(grant.agentId, [grant]);
  }
  return [...groups];
}

/**
 * The session's live grants, grouped by agent (each group collapsible, open at first), each counting down to its
 * expiry and revocable at once. A spent "Allow once" is listed while its run goes on and leaves with it.
 */
export function GrantsPanel({ sessionId }: { sessionId: string }) {
  const grants = useSessionGrants(sessionId);
  const workspace = useSessions((s) => s.sessions.find((x) => x.id === sessionId)?.workspace ?? null);
  const groups = useMemo(() => byAgent(grants), [grants]);
  const now = useNow(grants.length > 0);
  return (
    <section className="grants-panel" data-testid="grants-panel" aria-label="Grants in this session">
      <h3>
        Grants <span className="muted">({grants.length})</span>
      </h3>
      {grants.length === 0 ? (
        <p className="muted empty" data-testid="grants-empty">
          No live grants. Agents ask when they need something.
        </p>
      ) : (
        groups.map(([agentId, list]) => (
          <details key={agentId} className="grant-group" data-testid="grant-group" data-agent={agentId} open>
            <summary>
              <span className="grant-agent">{agentId}</span> <span className="muted">({list.length})</span>
            </summary>
            <ul className="grant-list">
              {list.map((grant) => (
                <GrantRow key={grant.id} grant={grant} now={now} workspace={workspace} />
              ))}
            </ul>
          </details>
        ))
      )}
    </section>
  );
}
