import './goal.css';
import { useEffect, useRef } from 'react';
import type { GoalCheckpoint, ProgressEntry, Session } from '../../../src-preload/contract';
import { useView } from '../../ui/viewStore';
import { CheckpointDialog } from './CheckpointDialog';
import { ContextEditor } from './ContextEditor';
import { GoalControls } from './GoalControls';
import { phaseLabels, taskSummary } from './goalFormat';
import { useGoal } from './goalStore';
import { ProgressLogView } from './ProgressLogView';
import { TaskBoard } from './TaskBoard';
import { useGoalSync } from './useGoalSync';

const noCheckpoints: GoalCheckpoint[] = [];
const noProgress: ProgressEntry[] = [];

/**
 * The goal part of a session's view: context.md, Run / Halt / Resume, the task board and the progress log, in a panel
 * that folds away; and the checkpoint dialog, which opens over everything while this session is in front and a
 * question waits (folded panel or not).
 */
export function SessionGoal({ session, hidden }: { session: Session; hidden: boolean }) {
  useGoalSync(session.id);
  const view = useGoal((s) => s.views[session.id] ?? null);
  const viewError = useGoal((s) => s.viewError[session.id] ?? null);
  const stateRead = useGoal((s) => s.stateReads[session.id]);
  const checkpoints = useGoal((s) => s.checkpoints[session.id] ?? noCheckpoints);
  const progress = useGoal((s) => s.progress[session.id] ?? noProgress);
  const setAside = useGoal((s) => s.dialogSetAside[session.id] ?? false);
  const mainView = useView((s) => s.view);
  const openChoice = useGoal((s) => s.panelOpen[session.id]);
  const open = openChoice ?? false;
  const focusRequested = useGoal((s) => s.focusRequest === session.id);
  const summary = useRef<HTMLElement>(null);
  const closed = session.status === 'closed';

  // The run's view has the freshest valid state; the file read reports a damaged file (and the state before any run).
  const state = view?.state ?? stateRead?.state ?? null;
  const problem = stateRead?.problem ?? null;
  const first = checkpoints[0];
  const showDialog = !!first && !setAside && !hidden && mainView === 'session';

  // A session with a goal under way shows it unfolded, until the user folds it themselves.
  const goalUnderWay = !!state?.plan || view?.phase === 'running' || view?.phase === 'waiting_checkpoint';
  useEffect(() => {
    if (openChoice === undefined && goalUnderWay) useGoal.getState().setPanelOpen(session.id, true);
  }, [openChoice, goalUnderWay, session.id]);

  useEffect(() => {
    if (!focusRequested || hidden || mainView !== 'session') return;
    summary.current?.focus();
    summary.current?.scrollIntoView({ block: 'nearest' });
    useGoal.getState().clearFocusRequest();
  }, [focusRequested, hidden, mainView]);

  return (
    <div className="session-goal" data-testid="session-goal">
      <details className="goal-panel" data-testid="goal-panel" open={open} onToggle={(event) => useGoal.getState().setPanelOpen(session.id, event.currentTarget.open)}>
        <summary ref={summary} data-testid="goal-summary" aria-keyshortcuts="Control+Shift+G" title="Goal (Ctrl+Shift+G)">
          <strong>Goal</strong>
          <span className="muted">
            {' · '}
            {view ? phaseLabels[view.phase] : 'not started'} · {taskSummary(state?.plan?.tasks ?? [])}
          </span>
          {checkpoints.length > 0 && (
            <span className="badge goal-waiting-badge" data-testid="goal-waiting-badge">
              {checkpoints.length} question{checkpoints.length === 1 ? '' : 's'} waiting
            </span>
          )}
        </summary>
        <GoalControls sessionId={session.id} view={view} viewError={viewError} disabled={closed} />
        <div className="goal-grid">
          <ContextEditor sessionId={session.id} disabled={closed} />
          <div className="goal-side">
            <TaskBoard sessionId={session.id} state={state} problem={problem} activeTaskId={view?.activeTaskId ?? null} disabled={closed} />
            <ProgressLogView entries={progress} />
          </div>
        </div>
      </details>
      {first && setAside && (
        <div className="notice goal-question-banner" data-testid="checkpoint-banner">
          <span>
            Waiting for your answer: <strong>{first.message}</strong>
          </span>
          <button type="button" data-testid="checkpoint-banner-open" onClick={() => useGoal.getState().setDialogAside(session.id, false)}>
            Answer
          </button>
        </div>
      )}
      {/* Outside the details: a folded panel does not render its content, and the question must show regardless. */}
      {showDialog && <CheckpointDialog key={first.resumeId} checkpoint={first} waiting={checkpoints.length - 1} />}
    </div>
  );
}
