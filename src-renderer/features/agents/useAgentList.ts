import { useCallback, useEffect } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useAgents } from './agentsStore';

/** Lists the installed agents on every (re)connection; `refresh` asks again (the host re-reads the folders). */
export function useAgentList(): { refresh(): void } {
  const client = useConnection((s) => s.client);
  const refresh = useCallback(() => {
    if (!client) return;
    client
      .call('agent.list', {})
      .then((list) => useAgents.getState().setList(list))
      .catch((error: unknown) => useAgents.getState().setListError(errorMessage(error)));
  }, [client]);
  useEffect(refresh, [refresh]);
  return { refresh };
}
