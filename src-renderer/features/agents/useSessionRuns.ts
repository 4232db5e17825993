import { useEffect } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { useAgents } from './agentsStore';
import { followRun } from './runEventStreams';

const none: string[] = [];

/** The session's runs (ids, oldest first), listed on every (re)connection, each followed until it has ended. */
export function useSessionRuns(sessionId: string): string[] {
  const client = useConnection((s) => s.client);
  const runIds = useAgents((s) => s.runsBySession[sessionId] ?? none);

  useEffect(() => {
    if (!client) return;
    let cancelled = false;
    client
      .call('agent.runs', { sessionId })
      .then((runs) => {
        if (!cancelled) useAgents.getState().upsertRuns(runs);
      })
      .catch(() => {
        // Lost connection (or a host without agents yet): the next client lists again.
      });
    return () => {
      cancelled = true;
    };
  }, [client, sessionId]);

  useEffect(() => {
    if (!client) return;
    for (const runId of runIds) followRun(client, runId);
  }, [client, runIds]);

  return runIds;
}
