import type { Ledger } from '../ledger/ledger';
import type { ExecStore } from './execStore';
import type { RunItemWriter } from './runItemWriter';
import { killRunProcesses, runProcesses } from './runProcesses';

export interface RecoveredRun {
  runId: string;
  sessionId: string;
  /** The attempt the previous host left running. */
  attempt: number;
  /** Processes of that attempt still alive (and ended now). */
  leftoverProcesses: number;
  outcome: 'requeued' | 'failed';
}

/**
 * Runs a previous host left `running` (it crashed, or stopped while they ran) go back to `queued`, safely: the
 * previous attempt's processes are ended first (its process group, if a marked member shows it is still the run's,
 * and every process carrying the run's mark), so two attempts never run at once; a `recovered` event item records
 * what was found; the output already stored stays and the next attempt's items follow it. A run whose attempts are
 * used up, or whose old processes cannot be ended, is failed with the reason instead.
 */
export async function recoverRuns(store: ExecStore, items: RunItemWriter, ledger: Ledger, now: () => number): Promise<RecoveredRun[]> {
  const recovered: RecoveredRun[] = [];
  for (const run of store.running()) {
    const leftovers = runProcesses(run.run_id, run.pgid, 'if-marked');
    const survivors = leftovers.length > 0 ? await killRunProcesses(run.run_id, run.pgid, { group: 'if-marked' }) : [];
    let failure: string | null = null;
    if (survivors.length > 0) failure = `processes of attempt ${run.attempt} could not be ended (pids ${survivors.join(', ')}): not run again`;
    else if (run.attempt >= run.maxAttempts) failure = `the host stopped during attempt ${run.attempt} of ${run.maxAttempts}: not run again`;
    items.append(run.run_id, 'event', 'recovered', {
      attempt: run.attempt,
      max_attempts: run.maxAttempts,
      pgid: run.pgid,
      leftover_processes: leftovers.length,
      outcome: failure ? 'failed' : 'requeued',
      message: failure ?? `the host stopped during attempt ${run.attempt}; the run is queued again (output so far is kept above)`,
    });
    if (failure) {
      items.append(run.run_id, 'event', 'exit', { status: 'failed', exit_code: null, signal: null, reason: failure });
      items.flush(() => store.end(run.run_id, { status: 'failed', exitCode: null, signal: null, reason: failure, endedAt: now() }));
    } else {
      items.flush(() => store.requeue(run.run_id));
    }
    items.release(run.run_id);
    // The interrupted attempt's end, so every exec.spawn entry has its exec.end.
    ledger.append({
      type: 'exec.end',
      actor: 'host',
      sessionId: run.session_id,
      payload: { run_id: run.run_id, attempt: run.attempt, status: 'interrupted', leftover_processes: leftovers.length, next: failure ? 'failed' : 'requeued' },
    });
    recovered.push({ runId: run.run_id, sessionId: run.session_id, attempt: run.attempt, leftoverProcesses: leftovers.length, outcome: failure ? 'failed' : 'requeued' });
  }
  return recovered;
}
