import { useAttention } from '../../ui/attention/attentionStore';

/**
 * The consent requests waiting across the window's sessions, on the Session tab: one asked while the user looks at
 * the ledger or an agent's manifest is not missed. (The goal's questions have their own badge beside it.)
 */
export function WaitingTabBadge() {
  const waiting = useAttention((s) => Object.values(s.waiting).reduce((sum, kinds) => sum + (kinds.consent?.length ?? 0), 0));
  if (waiting === 0) return null;
  return (
    <span className="badge attention-badge" data-testid="tab-consent-waiting" aria-label={`${waiting} permission request${waiting === 1 ? '' : 's'} waiting`}>
      {waiting}
    </span>
  );
}
