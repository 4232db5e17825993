import { useEffect, useRef, useState } from 'react';
import type { GoalTask, RollbackResult } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { TurnChangesBadge } from '../../ui/changes/TurnChangesBadge';
import { errorMessage } from '../../ui/errorMessage';
import { shortCommit } from './goalFormat';
import { TaskCommitView } from './TaskCommitView';

type Rollback = { kind: 'idle' } | { kind: 'confirm' } | { kind: 'running' } | { kind: 'done'; result: RollbackResult } | { kind: 'failed'; message: string };

/**
 * One task of the plan: status, what it waits for, its commits, and Roll back (git revert of its commits, history
 * kept), which asks for confirmation first; Escape or Cancel backs out.
 */
export function TaskRow({ sessionId, task, active, disabled }: { sessionId: string; task: GoalTask; active: boolean; disabled: boolean }) {
  const client = useConnection((s) => s.client);
  const [rollback, setRollback] = useState<Rollback>({ kind: 'idle' });
  const [opened, setOpened] = useState<string | null>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const rollbackButton = useRef<HTMLButtonElement>(null);
  const commits = task.commits ?? [];

  useEffect(() => {
    if (rollback.kind === 'confirm') confirmButton.current?.focus();
  }, [rollback.kind]);

  async function confirm(): Promise<void> {
    if (!client) return;
    setRollback({ kind: 'running' });
    try {
      setRollback({ kind: 'done', result: await client.call('goal.rollback', { sessionId, taskId: task.id }) });
    } catch (e) {
      setRollback({ kind: 'failed', message: errorMessage(e) });
    }
  }

  function cancel(): void {
    setRollback({ kind: 'idle' });
    rollbackButton.current?.focus();
  }

  return (
    <li
      className={`goal-task goal-task-${task.status}${active ? ' goal-task-active' : ''}`}
      data-testid="goal-task"
      data-task-id={task.id}
      data-status={task.status}
      data-active={active}
      aria-current={active ? 'step' : undefined}
    >
      <div className="goal-task-line">
        <span className="goal-task-id">{task.id}</span>
        <span className="goal-task-title">{task.title}</span>
        <span className={`badge goal-task-status-${task.status}`} data-testid="goal-task-status">
          {active ? `${task.status} · active` : task.status}
        </span>
        {task.status === 'stale' && <small className="muted">a task it builds on was rolled back; the next run does it again</small>}
      </div>
      <div className="goal-task-facts muted">
        <span data-testid="goal-task-deps">{task.dependencies.length > 0 ? `after ${task.dependencies.join(', ')}` : 'no dependencies'}</span>
        {commits.length > 0 && (
          <span data-testid="goal-task-commits">
            {' · '}
            {commits.map((commit) => (
              <button
                key={commit}
                type="button"
                className="goal-task-commit"
                data-testid="goal-task-commit"
                title={`Show commit ${commit}: its files and diff`}
                aria-expanded={opened === commit}
                onClick={() => setOpened(opened === commit ? null : commit)}
              >
                <code>{shortCommit(commit)}</code>
              </button>
            ))}
          </span>
        )}
        <TurnChangesBadge sessionId={sessionId} kind="goal_task" sourceId={task.id} />
        {rollback.kind !== 'confirm' && (
          <button
            ref={rollbackButton}
            type="button"
            className="icon-button goal-task-rollback"
            data-testid="goal-task-rollback"
            disabled={!client || disabled || commits.length === 0 || rollback.kind === 'running'}
            title={commits.length === 0 ? 'Nothing to roll back: the task has no commits' : `Revert the ${commits.length} commit(s) of task ${task.id}`}
            onClick={() => setRollback({ kind: 'confirm' })}
          >
            {rollback.kind === 'running' ? 'Rolling back…' : 'Roll back'}
          </button>
        )}
      </div>
      {rollback.kind === 'confirm' && (
        <div
          className="goal-task-confirm"
          role="group"
          aria-label={`Confirm roll back of task ${task.id}`}
          data-testid="goal-task-confirm"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              cancel();
            }
          }}
        >
          <span>
            Revert {commits.length} commit{commits.length === 1 ? '' : 's'} of “{task.title}” with git revert (history is kept) and mark the task pending?
          </span>
          <button ref={confirmButton} type="button" className="contrast" data-testid="goal-task-confirm-rollback" onClick={() => void confirm()}>
            Roll back
          </button>
          <button type="button" className="secondary" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {opened && <TaskCommitView sessionId={sessionId} commit={opened} onClose={() => setOpened(null)} />}
      {rollback.kind === 'done' && (
        <small className="goal-task-result" role="status" data-testid="goal-task-rollback-result">
          Reverted {rollback.result.reverted.map(shortCommit).join(', ') || 'nothing'}
          {rollback.result.revertCommits.length > 0 && ` with ${rollback.result.revertCommits.map(shortCommit).join(', ')}`}
        </small>
      )}
      {rollback.kind === 'failed' && (
        <small className="item-error" role="alert" data-testid="goal-task-rollback-error">
          Roll back failed: {rollback.message}
        </small>
      )}
    </li>
  );
}
