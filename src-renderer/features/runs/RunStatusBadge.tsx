import type { Run } from '../../../src-preload/contract/exec';
import { isBadOutcome, statusLabel } from './runFormat';

/** The run's status with its exit code or signal; the reason (why it failed or stopped) as its tooltip. */
export function RunStatusBadge({ run }: { run: Run }) {
  const tone = isBadOutcome(run) ? ' exec-status-bad' : run.status === 'running' ? ' exec-status-live' : '';
  return (
    <span
      className={`badge exec-status exec-status-${run.status}${tone}`}
      data-testid="exec-run-status"
      data-status={run.status}
      data-exit-code={run.exit_code ?? undefined}
      title={run.reason ?? undefined}
    >
      {statusLabel(run)}
    </span>
  );
}
