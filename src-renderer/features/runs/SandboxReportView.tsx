import { sandboxSummary } from './sandboxSummary';
import { useSandboxReport } from './useSandboxReport';

/**
 * Which isolation and limits agents' commands get on this machine (cgroups v1 or v2, or none, differ between
 * machines): one line, each limit on opening it. Commands the user runs here are the user's own and run unsandboxed.
 */
export function SandboxReportView() {
  const state = useSandboxReport();
  if (state.kind === 'loading') return null;
  if (state.kind === 'failed') {
    return (
      <small className="muted" data-testid="exec-sandbox-report">
        What the sandbox enforces here is unknown: {state.message}
      </small>
    );
  }
  const { report } = state;
  return (
    <details className="exec-sandbox-report" data-testid="exec-sandbox-report" data-usable={report.usable ? 'true' : 'false'}>
      <summary className={report.usable ? 'muted' : 'item-error'}>{sandboxSummary(report)}</summary>
      {report.problem && (
        <p className="item-error" role="alert">
          {report.problem.message} <span className="muted">{report.problem.hint}</span>
        </p>
      )}
      <ul>
        {report.items.map((item) => (
          <li key={item.id} data-testid="exec-sandbox-limit" data-enforced={item.enforced ? 'true' : 'false'}>
            <span aria-hidden="true">{item.enforced ? '✓' : '✗'}</span> <span className="exec-sr-only">{item.enforced ? 'Enforced: ' : 'Not enforced: '}</span>
            {item.sentence}
            {item.via && <span className="muted"> ({item.via})</span>}
          </li>
        ))}
      </ul>
      <small className="muted">Commands you run here are your own: they run as you, without the sandbox.</small>
    </details>
  );
}
