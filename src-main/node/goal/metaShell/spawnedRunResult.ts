import type { AgentRunInfo } from '../../../../src-preload/contract/agents';
import type { AgentRun } from '../../agents/runtime/agentRun';

/** What a spawned run came to: its final info and its output (log lines left out). */
export interface SpawnedRunResult {
  info: AgentRunInfo;
  /** Every output chunk that is not the log card, in order: spawn_agent's `data`. */
  output: string;
  /** The last of those chunks alone (a checkpoint signal may follow other output). */
  lastChunk: string | undefined;
  tokensUsed: number;
}

/** Resolves when the run has ended (at once for one that already has), with what it produced. */
export function spawnedRunResult(run: AgentRun): Promise<SpawnedRunResult> {
  const collect = (info: AgentRunInfo): SpawnedRunResult => {
    const chunks = run.replay().flatMap((event) => (event.kind === 'output' && event.cardKind !== 'log' ? [event.data] : []));
    return { info, output: chunks.join(''), lastChunk: chunks.at(-1), tokensUsed: run.tokensUsed };
  };
  if (run.ended) return Promise.resolve(collect(run.info));
  return new Promise((resolve) => {
    const listener = run.onDidAppend((event) => {
      if (event.kind !== 'ended') return;
      listener.dispose();
      resolve(collect(event.run));
    });
  });
}
