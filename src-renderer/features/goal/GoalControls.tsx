import { useEffect, useState } from 'react';
import type { DirtyTreeAnswer, GoalRunView } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useSessions } from '../../ui/sessionsStore';
import { DirtyTreeQuestion, dirtyTreeFiles } from './DirtyTreeQuestion';
import { controlsFor, phaseLabels } from './goalFormat';
import { useGoal } from './goalStore';

type Action = 'goal.start' | 'goal.halt' | 'goal.resume';

/** Run / Halt / Resume, the run's phase and planner, and why it stopped. */
export function GoalControls({ sessionId, view, viewError, disabled }: { sessionId: string; view: GoalRunView | null; viewError: string | null; disabled: boolean }) {
  const client = useConnection((s) => s.client);
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The host's question before a run that would commit the user's uncommitted work; answered, the action is retried.
  const [dirty, setDirty] = useState<{ action: 'goal.start' | 'goal.resume'; files: string[] } | null>(null);
  const allowed = controlsFor(view?.phase ?? null);
  // Run refused the plan, the user fixed and saved context.md: the refusal no longer describes what is there.
  const contextSaves = useGoal((s) => s.contextSaves[sessionId] ?? 0);
  useEffect(() => {
    if (contextSaves > 0) setError(null);
  }, [contextSaves]);
  const unavailable = !client || disabled || viewError !== null || busy !== null;

  async function act(action: Action, dirtyTree?: DirtyTreeAnswer): Promise<void> {
    if (!client) return;
    setBusy(action);
    setError(null);
    try {
      const view = await client.call(action, { sessionId, ...(dirtyTree && action !== 'goal.halt' ? { dirtyTree } : {}) });
      setDirty(null);
      // The stream brings the new view too; taking the answer's keeps the buttons right even before it arrives.
      useGoal.getState().setView(view.sessionId, view);
      // "Run in a new worktree": the run is in the new session; show it.
      if (view.sessionId !== sessionId) useSessions.getState().select(view.sessionId);
    } catch (e) {
      const files = action === 'goal.halt' ? null : dirtyTreeFiles(e);
      if (files && action !== 'goal.halt') setDirty({ action, files });
      else setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="goal-controls" data-testid="goal-controls">
      <div className="goal-buttons">
        <button type="button" data-testid="goal-run" disabled={unavailable || !allowed.run} onClick={() => void act('goal.start')}>
          {busy === 'goal.start' ? 'Starting…' : 'Run'}
        </button>
        <button type="button" className="secondary" data-testid="goal-halt" disabled={unavailable || !allowed.halt} onClick={() => void act('goal.halt')}>
          {busy === 'goal.halt' ? 'Halting…' : 'Halt'}
        </button>
        <button type="button" className="secondary" data-testid="goal-resume" disabled={unavailable || !allowed.resume} onClick={() => void act('goal.resume')}>
          {busy === 'goal.resume' ? 'Resuming…' : 'Resume'}
        </button>
      </div>
      {view && (
        <span className="goal-phase" data-testid="goal-phase" data-phase={view.phase}>
          <span className={`badge goal-phase-${view.phase}`}>{phaseLabels[view.phase]}</span>
          <span className="muted"> · {view.planner === 'llm' ? 'LLM planner' : 'deterministic planner'}</span>
          {view.message && <span className="goal-phase-message"> · {view.message}</span>}
        </span>
      )}
      {dirty && (
        <DirtyTreeQuestion
          files={dirty.files}
          // A stopped run continues in its own workspace (Run resumes it there): only a fresh run can move to a worktree.
          allowWorktree={dirty.action === 'goal.start' && view?.phase !== 'failed' && view?.phase !== 'halted'}
          busy={busy !== null}
          onAnswer={(answer) => void act(dirty.action, answer)}
          onCancel={() => setDirty(null)}
        />
      )}
      {viewError && (
        <small className="item-error" role="alert" data-testid="goal-unavailable">
          Goal runs are not available: {viewError}
        </small>
      )}
      {error && (
        <small className="item-error" role="alert" data-testid="goal-action-error">
          {error}
        </small>
      )}
    </div>
  );
}
