import { DomainError } from '../../base/domainError';
import type { MetaState } from '../metaShell/metaState';
import type { ProgressLog } from '../metaShell/progressLog';
import type { Ledger } from '../../ledger/ledger';
import type { RollbackResult } from './goalRunTypes';
import { GitCommandError, type WorkspaceGit } from './workspaceGit';

/**
 * rollback(taskId): `git revert` of the task's commits, newest first, as one revert commit (history is kept, nothing
 * is rewritten), then the task is pending again with no commits, and the rollback is in the ledger and the progress
 * log. Refused, with what to do instead, when it could not be clean: uncommitted changes in the workspace, a task
 * that builds on this one still has commits, or a commit is no longer in the history. A revert that conflicts is
 * aborted, leaving the workspace as it was.
 */
export async function rollbackTask(
  deps: { meta: MetaState; git: WorkspaceGit; ledger: Ledger; progress: ProgressLog },
  sessionId: string,
  taskId: string,
  actor: string,
): Promise<RollbackResult> {
  const state = await deps.meta.read();
  const tasks = state?.plan?.tasks ?? [];
  const index = tasks.findIndex((t) => t.id === taskId);
  if (index < 0) throw new DomainError('not_found', `there is no task "${taskId}" in the plan${tasks.length ? ` (tasks: ${tasks.map((t) => t.id).join(', ')})` : ' (there is no plan yet)'}`);
  const task = tasks[index];
  const commits = task.commits ?? [];
  if (commits.length === 0) throw new DomainError('state', `task ${taskId} has no commits to roll back`);
  const dependents = tasks.filter((t) => t.dependencies.includes(taskId) && (t.commits ?? []).length > 0).map((t) => t.id);
  if (dependents.length > 0) {
    throw new DomainError('state', `task ${dependents.join(', ')} depends on task ${taskId} and has commits built on it: roll back ${dependents.length > 1 ? 'those' : 'that task'} first`);
  }
  if (await deps.git.isDirty()) {
    throw new DomainError('state', `the workspace has uncommitted changes; commit or discard them before rolling back task ${taskId} (a revert must not mix with them)`);
  }
  for (const commit of commits) {
    if (!(await deps.git.isInHistory(commit))) {
      throw new DomainError('state', `commit ${commit} of task ${taskId} is not in the workspace's history any more (was the branch changed or rewritten?); nothing was reverted`);
    }
  }
  const reverted = [...commits].reverse();
  let revertCommits: string[];
  try {
    revertCommits = [await deps.git.revertAll(reverted, `Roll back task ${taskId}: ${task.title}\n\nReverts ${reverted.join(', ')} (newest first).`)];
  } catch (error) {
    if (error instanceof GitCommandError) throw new DomainError('conflict', `task ${taskId} cannot be reverted cleanly, later changes touch the same lines (${error.stderr.trim()}); the revert was aborted and nothing changed`);
    throw error;
  }
  await deps.meta.updateState(`plan.tasks.${index}`, { ...task, status: 'pending', commits: [] });
  // What was built on the task is no longer "complete": every task that depends on it, directly or not, is stale.
  const stale = dependentsOf(tasks, taskId).filter((i) => tasks[i].status === 'complete');
  for (const i of stale) await deps.meta.updateState(`plan.tasks.${i}.status`, 'stale');
  deps.ledger.append({ type: 'goal.rollback', actor, sessionId, payload: { taskId, reverted, revertCommits } });
  deps.progress.log(sessionId, `Task ${taskId} rolled back by ${actor}: reverted ${reverted.map((c) => c.slice(0, 10)).join(', ')} in ${revertCommits[0].slice(0, 10)}; the task is pending again`, 'warn');
  if (stale.length > 0) deps.progress.log(sessionId, `Task ${stale.map((i) => tasks[i].id).join(', ')} built on task ${taskId}: marked stale, the next run executes ${stale.length > 1 ? 'them' : 'it'} again`, 'warn');
  return { taskId, reverted, revertCommits };
}

/** Indexes of the tasks that depend on `taskId`, directly or through other tasks. */
function dependentsOf(tasks: readonly { id: string; dependencies: readonly string[] }[], taskId: string): number[] {
  const found = new Set<string>([taskId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of tasks) {
      if (!found.has(t.id) && t.dependencies.some((d) => found.has(d))) {
        found.add(t.id);
        grew = true;
      }
    }
  }
  return tasks.flatMap((t, i) => (t.id !== taskId && found.has(t.id) ? [i] : []));
}
