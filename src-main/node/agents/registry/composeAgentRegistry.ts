import type { AreaComposition } from '../../base/areaComposition';
import type { Ledger } from '../../ledger/ledger';
import type { Database } from '../../store/database';
import { bundledAgentsDir, userAgentsDir } from './agentFolders';
import { AgentRegistry } from './agentRegistry';

/**
 * The agents this host knows. They are registered as the host starts (a new or changed manifest is one ledger
 * entry), not when someone first opens the Agents view: the ledger then says which agents this run had.
 */
export function composeAgentRegistry({ home, db, ledger }: { home: string; db: Database; ledger: Ledger }): AreaComposition<AgentRegistry> {
  const registry = new AgentRegistry({ db, ledger, bundledDir: bundledAgentsDir(), userDir: userAgentsDir(home) });
  registry.refresh();
  return { service: registry, handlers: {}, dispose: () => {} };
}
