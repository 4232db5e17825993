import { useRef, useState, type KeyboardEvent } from 'react';
import { useNow } from '../../ui/useNow';
import { movedIndex } from './listNavigation';
import { RunCommandForm } from './RunCommandForm';
import { isLive } from './runFormat';
import { RunRow } from './RunRow';
import { SandboxReportView } from './SandboxReportView';
import { useRuns } from './runsStore';
import { useSessionExecRuns } from './useSessionExecRuns';

const noOpen: readonly string[] = [];
/** Rows shown at first (newest first); a session with thousands of runs shows more on request, a page at a time. */
const PAGE = 200;

/**
 * The session's process runs, newest first, live: status, exit code, duration (ticking while a run runs), output
 * size, who started it, recovery and the sandbox's limits. Arrow keys, Home and End move along the list; Enter opens
 * the run's card. Above it, the field that starts a command as the user.
 */
export function RunsPanel({ sessionId, open }: { sessionId: string; open: boolean }) {
  const runs = useSessionExecRuns(sessionId);
  const listError = useRuns((s) => s.listError[sessionId] ?? null);
  const openCards = useRuns((s) => s.openCards[sessionId] ?? noOpen);
  const now = useNow(runs.some((run) => isLive(run.status)));
  const [activeId, setActiveId] = useState<string | null>(null);
  const [limit, setLimit] = useState(PAGE);
  const rowButtons = useRef(new Map<string, HTMLButtonElement>());
  const shown = runs.length > limit ? runs.slice(0, limit) : runs;
  const activeIndex = Math.max(0, shown.findIndex((run) => run.run_id === activeId));

  function onRowKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number): void {
    const next = movedIndex(event.key, index, shown.length);
    if (next === null) return;
    event.preventDefault();
    const target = shown[next];
    setActiveId(target.run_id);
    rowButtons.current.get(target.run_id)?.focus();
  }

  return (
    <section className="runs-panel" data-testid="runs-panel" aria-label="Process runs in this session">
      <h3>
        Runs <span className="muted">({runs.length})</span>
      </h3>
      <RunCommandForm sessionId={sessionId} disabled={!open} />
      <SandboxReportView />
      {listError && (
        <small className="item-error" role="alert" data-testid="exec-runs-error">
          Runs cannot be shown: {listError}
        </small>
      )}
      {runs.length === 0 ? (
        <p className="muted empty" data-testid="exec-runs-empty">
          No process runs yet. Commands you run here, and commands agents run, are listed with their output.
        </p>
      ) : (
        <ul className="exec-run-list" aria-label="Runs (arrow keys move, Enter opens the output)">
          {shown.map((run, index) => (
            <RunRow
              key={run.run_id}
              run={run}
              now={now}
              active={index === activeIndex}
              open={openCards.includes(run.run_id)}
              openRef={(button) => {
                if (button) rowButtons.current.set(run.run_id, button);
                else rowButtons.current.delete(run.run_id);
              }}
              onOpen={() => useRuns.getState().openCard(sessionId, run.run_id)}
              onFocus={() => setActiveId(run.run_id)}
              onKeyDown={(event) => onRowKeyDown(event, index)}
            />
          ))}
        </ul>
      )}
      {runs.length > shown.length && (
        <button type="button" className="secondary outline exec-more" onClick={() => setLimit(limit + PAGE)}>
          Show {Math.min(PAGE, runs.length - shown.length)} older runs ({runs.length - shown.length} not shown)
        </button>
      )}
    </section>
  );
}
