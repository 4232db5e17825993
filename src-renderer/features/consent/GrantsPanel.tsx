import { GrantRow } from './GrantRow';
import { useNow } from '../../ui/useNow';
import { useSessionGrants } from './useSessionGrants';

/** The session's live grants, each counting down to its expiry, each revocable at once. */
export function GrantsPanel({ sessionId }: { sessionId: string }) {
  const grants = useSessionGrants(sessionId);
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
        <ul className="grant-list">
          {grants.map((grant) => (
            <GrantRow key={grant.id} grant={grant} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}
