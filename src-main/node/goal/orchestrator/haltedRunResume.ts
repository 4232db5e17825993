import type { CheckpointResumer } from '../metaShell/checkpointResumer';
import type { CheckpointStore } from '../metaShell/checkpointStore';
import type { MetaState } from '../metaShell/metaState';
import type { ProgressLog } from '../metaShell/progressLog';
import { patchRecord, readRecord } from './goalRunRecord';

/**
 * What Resume changes in session.json before the loop runs again. After the circuit breaker: its human_action
 * checkpoint is answered (with "continue" if the user pressed Resume without writing anything), resumed once through
 * the CheckpointResumer, gapCount goes back to 0 and the user's answer joins the verifier's gaps as guidance for the
 * executor. Failed tasks become pending so they run again. A checkpoint an agent asked stays: the loop waits on it.
 */
export async function prepareResume(
  deps: { meta: MetaState; checkpoints: CheckpointStore; resumer: CheckpointResumer; progress: ProgressLog },
  sessionId: string,
  actor: string,
): Promise<void> {
  const state = await deps.meta.read();
  if (!state) return;
  const record = readRecord(state);
  const breaker = record.checkpoint?.role === 'breaker' ? record.checkpoint : null;
  if (breaker) {
    const ref = { sessionId, resumeId: breaker.resumeId };
    if (deps.checkpoints.get(ref)?.status === 'pending') deps.checkpoints.answer(ref, 'continue', actor);
    const outcome = await deps.resumer.resumeOnce(ref, ({ answer }) => Promise.resolve(answer));
    const answer = outcome.ok && typeof outcome.value === 'string' ? outcome.value.trim() : '';
    await deps.meta.updateState('gapCount', 0);
    await patchRecord(deps.meta, (r) => {
      delete r.checkpoint;
      const taskId = breaker.taskId;
      if (taskId !== null && answer !== '' && answer !== 'continue') r.guidance[taskId] = [r.guidance[taskId], `The user says: ${answer}`].filter(Boolean).join('\n');
    });
    deps.progress.log(sessionId, `Circuit breaker reset by ${actor}${answer && answer !== 'continue' ? `: "${answer}"` : ''}; task ${breaker.taskId} runs again`);
  }
  const tasks = (await deps.meta.read())!.plan?.tasks ?? [];
  for (const [i, task] of tasks.entries()) {
    if (task.status === 'failed') await deps.meta.updateState(`plan.tasks.${i}.status`, 'pending');
  }
}
