import { useGoal } from './goalStore';

/**
 * How many agent questions wait in the sessions the window follows, for the Session tab: a question asked while the
 * user looks at the ledger or the connections is not missed (the dialog itself opens only over the session view).
 */
export function WaitingQuestionsBadge() {
  const waiting = useGoal((s) => Object.values(s.checkpoints).reduce((sum, list) => sum + (list?.length ?? 0), 0));
  if (waiting === 0) return null;
  return (
    <span className="badge goal-waiting-badge" data-testid="tab-questions-waiting" aria-label={`${waiting} question${waiting === 1 ? '' : 's'} waiting`}>
      {waiting}
    </span>
  );
}
