import type { Ledger } from '../ledger/ledger';
import { AGENT_ACTOR_PREFIX } from './agentRunLauncher';
import type { ExecStore, StoredRun } from './execStore';
import type { RunItemWriter } from './runItemWriter';
import { killRunProcesses, runProcesses } from './runProcesses';

export interface RecoveredRun {
  runId: string;
  sessionId: string;
  /** The attempt the previous host left running. */
  attempt: number;
  /** Processes of that attempt still alive (and ended now). */
  leftoverProcesses: number;
  outcome: 'requeued' | 'failed' | 'interrupted';
}

/**
 * An agent's run outlives neither the agent run that asked for it nor that run's grants, and no agent run outlives its
 * host: agents run as the host's children (WASM processes, native agents in a sandbox that dies with its parent) and
 * the runtime keeps them in memory only. So at start, every unfinished run an agent asked for is orphaned: running it
 * (again) would act on a consent given to a conversation that no longer exists, with nobody to read the result.
 */
function agentRunEnded(run: StoredRun): boolean {
  return run.actor.startsWith(AGENT_ACTOR_PREFIX);
}

const ORPHANED = 'the agent run that asked for it ended when the host stopped, and its grants with it: not run again (ask the agent to run it again if it is still needed)';

/**
 * A user's runs a previous host left `running` (it crashed, or stopped while they ran) go back to `queued`, safely: the
 * previous attempt's processes are ended first (its process group, if a marked member shows it is still the run's,
 * and every process carrying the run's mark), so two attempts never run at once; a `recovered` event item records
 * what was found; the output already stored stays and the next attempt's items follow it. A run whose attempts are
 * used up, or whose old processes cannot be ended, is failed with the reason instead. An agent's run, running or
 * queued, ends `interrupted` with the reason instead (see agentRunEnded): its old processes are ended all the same.
 */
export async function recoverRuns(store: ExecStore, items: RunItemWriter, ledger: Ledger, now: () => number): Promise<RecoveredRun[]> {
  const recovered: RecoveredRun[] = [];
  for (const run of store.running()) {
    const leftovers = runProcesses(run.run_id, run.pgid, 'if-marked');
    const survivors = leftovers.length > 0 ? await killRunProcesses(run.run_id, run.pgid, { group: 'if-marked' }) : [];
    let failure: string | null = null;
    let outcome: RecoveredRun['outcome'] = 'requeued';
    if (survivors.length > 0) failure = `processes of attempt ${run.attempt} could not be ended (pids ${survivors.join(', ')}): not run again`;
    else if (agentRunEnded(run)) {
      failure = `the host stopped during attempt ${run.attempt}; ${ORPHANED}`;
      outcome = 'interrupted';
    } else if (run.attempt >= run.maxAttempts) failure = `the host stopped during attempt ${run.attempt} of ${run.maxAttempts}: not run again`;
    if (failure && outcome === 'requeued') outcome = 'failed';
    items.append(run.run_id, 'event', 'recovered', {
      attempt: run.attempt,
      max_attempts: run.maxAttempts,
      pgid: run.pgid,
      leftover_processes: leftovers.length,
      outcome,
      message: failure ?? `the host stopped during attempt ${run.attempt}; the run is queued again (output so far is kept above)`,
    });
    if (failure) {
      const status = outcome === 'interrupted' ? 'interrupted' : 'failed';
      items.append(run.run_id, 'event', 'exit', { status, exit_code: null, signal: null, reason: failure });
      items.flush(() => store.end(run.run_id, { status, exitCode: null, signal: null, reason: failure, endedAt: now() }));
    } else {
      items.flush(() => store.requeue(run.run_id));
    }
    items.release(run.run_id);
    // The interrupted attempt's end, so every exec.spawn entry has its exec.end.
    ledger.append({
      type: 'exec.end',
      actor: 'host',
      sessionId: run.session_id,
      payload: { run_id: run.run_id, attempt: run.attempt, status: 'interrupted', leftover_processes: leftovers.length, next: outcome },
    });
    recovered.push({ runId: run.run_id, sessionId: run.session_id, attempt: run.attempt, leftoverProcesses: leftovers.length, outcome });
  }
  // An agent's run still waiting its turn would otherwise start now, for nobody.
  for (const run of store.queuedByAgents()) {
    const reason = `it was still queued when the host stopped; ${ORPHANED}`;
    items.append(run.run_id, 'event', 'recovered', { attempt: run.attempt, max_attempts: run.maxAttempts, pgid: null, leftover_processes: 0, outcome: 'interrupted', message: reason });
    items.append(run.run_id, 'event', 'exit', { status: 'interrupted', exit_code: null, signal: null, reason });
    items.flush(() => store.end(run.run_id, { status: 'interrupted', exitCode: null, signal: null, reason, endedAt: now() }));
    items.release(run.run_id);
    ledger.append({ type: 'exec.end', actor: 'host', sessionId: run.session_id, payload: { run_id: run.run_id, attempt: run.attempt, status: 'interrupted', next: 'interrupted' } });
    recovered.push({ runId: run.run_id, sessionId: run.session_id, attempt: run.attempt, leftoverProcesses: 0, outcome: 'interrupted' });
  }
  return recovered;
}
