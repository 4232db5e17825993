import type { OmniClient } from '../../bridge/connectionStore';
import { useAgents } from './agentsStore';
import { followRun } from './runEventStreams';

/** Starts an agent; its card appears at once and fills from the run's event stream. */
export async function startRun(client: OmniClient, sessionId: string, agent: string, prompt: string): Promise<void> {
  const run = await client.call('agent.start', { sessionId, agent, prompt });
  useAgents.getState().upsertRuns([run]);
  followRun(client, run.id);
}

export type RunControl = 'stop' | 'suspend' | 'resume';

export async function controlRun(client: OmniClient, runId: string, action: RunControl): Promise<void> {
  const method = action === 'stop' ? 'agent.stop' : action === 'suspend' ? 'agent.suspend' : 'agent.resume';
  const run = await client.call(method, { runId });
  useAgents.getState().upsertRuns([run]);
}
