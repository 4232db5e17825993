import '../../ui/outcome/outcomeChip.css';
import type { Run } from '../../../src-preload/contract';
import { execOutcomeKind, isBadOutcome, statusLabel } from './runFormat';

const QUEUED_WHY = 'Waiting for its turn: the runs of a session run one at a time, in order';

/** The run's status with its exit code or signal; the reason (why it failed or stopped, or why it waits) as its tooltip. */
export function RunStatusBadge({ run }: { run: Run }) {
  const tone = isBadOutcome(run) ? ' exec-status-bad' : run.status === 'running' ? ' exec-status-live' : '';
  const kind = execOutcomeKind(run);
  return (
    <span
      className={`badge exec-status exec-status-${run.status}${tone} outcome-chip outcome-${kind}`}
      data-testid="exec-run-status"
      data-status={run.status}
      data-outcome-kind={kind}
      data-exit-code={run.exit_code ?? undefined}
      title={run.reason ?? (run.status === 'queued' ? QUEUED_WHY : undefined)}
    >
      {statusLabel(run)}
    </span>
  );
}
