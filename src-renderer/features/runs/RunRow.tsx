import { useState, type KeyboardEvent, type Ref } from 'react';
import type { Run } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { TurnChangesBadge } from '../../ui/changes/TurnChangesBadge';
import { errorMessage } from '../../ui/errorMessage';
import { formatBytes } from '../../ui/formatBytes';
import { actorLabel, commandLine, durationText, isLive, wasRecovered } from './runFormat';
import { killRun } from './runActions';
import { RunStatusBadge } from './RunStatusBadge';

interface Props {
  run: Run;
  now: number;
  /** The row the list's roving focus is on: the only one reachable with Tab. */
  active: boolean;
  open: boolean;
  openRef?: Ref<HTMLButtonElement>;
  onOpen(): void;
  onFocus(): void;
  onKeyDown(event: KeyboardEvent<HTMLButtonElement>): void;
}

/** One run in the Runs panel: the row itself opens the run's card; Kill stops it while it runs. */
export function RunRow({ run, now, active, open, openRef, onOpen, onFocus, onKeyDown }: Props) {
  const client = useConnection((s) => s.client);
  const [error, setError] = useState<string | null>(null);
  const [killing, setKilling] = useState(false);
  const [limitsShown, setLimitsShown] = useState(false);
  const command = commandLine(run.argv);
  const duration = durationText(run, now);

  async function kill(): Promise<void> {
    if (!client) return;
    setKilling(true);
    setError(null);
    try {
      await killRun(client, run.run_id);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setKilling(false);
    }
  }

  return (
    <li className="exec-run-row" data-testid="exec-run-row" data-run-id={run.run_id} data-status={run.status}>
      <button
        ref={openRef}
        type="button"
        className="exec-run-open"
        tabIndex={active ? 0 : -1}
        aria-pressed={open}
        title={`${command}\nin ${run.cwd}\nEnter opens its output`}
        onClick={onOpen}
        onFocus={onFocus}
        onKeyDown={onKeyDown}
      >
        <code className="exec-command">{command}</code>
        <span className="exec-run-facts">
          <RunStatusBadge run={run} />
          <span data-testid="exec-run-duration">{duration ?? '—'}</span>
          <span data-testid="exec-run-size">
            {formatBytes(run.output_bytes)}
            {run.truncated ? ' (truncated)' : ''}
          </span>
          <span className="muted">{actorLabel(run.actor)}</span>
          {run.pty && <span className="badge">PTY</span>}
          {wasRecovered(run) && (
            <span className="badge exec-recovered" data-testid="exec-run-recovered" title="The host restarted while this run ran; it was run again">
              recovered · attempt {run.attempt}
            </span>
          )}
        </span>
      </button>
      {/* One chip for the sandbox, not one per limit: the limits are listed on demand. */}
      {run.sandbox.length === 0 ? (
        <span className="muted exec-sandbox-none">no sandbox</span>
      ) : (
        <button
          type="button"
          className="icon-button badge exec-sandbox-chip"
          data-testid="exec-run-sandbox"
          aria-expanded={limitsShown}
          aria-controls={`limits-${run.run_id}`}
          title="Limits the operating system enforced for this run"
          onClick={() => setLimitsShown(!limitsShown)}
        >
          sandbox · {run.sandbox.length} limit{run.sandbox.length === 1 ? '' : 's'} {limitsShown ? '▾' : '▸'}
        </button>
      )}
      <TurnChangesBadge sessionId={run.session_id} kind="shell_run" sourceId={run.run_id} />
      {isLive(run.status) && (
        <button type="button" className="icon-button exec-kill" data-testid="exec-run-row-kill" disabled={!client || killing} aria-label={`Kill ${command}`} onClick={() => void kill()}>
          Kill
        </button>
      )}
      {limitsShown && run.sandbox.length > 0 && (
        <ul className="exec-sandbox" id={`limits-${run.run_id}`} aria-label="Limits the operating system enforced for this run">
          {run.sandbox.map((limit) => (
            <li key={limit} className="badge" data-testid="exec-run-limit">
              {limit}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <small className="item-error" role="alert">
          {error}
        </small>
      )}
    </li>
  );
}
