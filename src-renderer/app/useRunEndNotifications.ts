import { useEffect } from 'react';
import { notifyRunEnded } from '../features/attention/notifyRunEnded';
import { useAgents, type AgentsState } from '../features/agents/agentsStore';

/**
 * Tells attention when an agent run the window saw running ends. In app/ because it joins two features (agents
 * knows the runs, attention notifies). Runs already over when first seen (a reload) do not notify.
 */
export function useRunEndNotifications(): void {
  useEffect(() => {
    const live = new Set<string>();
    const consider = (state: AgentsState): void => {
      for (const [runId, run] of Object.entries(state.runs)) {
        const ended = run.info.state === 'Terminated';
        if (!ended) {
          live.add(runId);
          continue;
        }
        if (!live.delete(runId)) continue;
        notifyRunEnded({ runId, sessionId: run.info.sessionId, agent: run.info.agent, outcome: run.info.outcome });
      }
    };
    consider(useAgents.getState());
    return useAgents.subscribe(consider);
  }, []);
}
