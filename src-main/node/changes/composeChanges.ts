import type { changesContract } from '../../../src-preload/contract/changes';
import type { Handlers } from '../../../src-preload/rpc';
import type { AreaComposition } from '../base/areaComposition';
import type { HostLog } from '../base/hostLog';
import type { Ledger } from '../ledger/ledger';
import type { SessionService } from '../sessions/sessionService';
import type { Database } from '../store/database';
import type { SecretScrubber } from '../vault/secretScrubber';
import { createChangesHandlers } from './changesHandlers';
import { ChangesService } from './changesService';
import { ShadowStore } from './shadowStore';
import type { OpenSnapshotEngine } from './snapshotEngine';

export interface ChangesDeps {
  home: string;
  db: Database;
  ledger: Ledger;
  sessions: SessionService;
  scrubber: SecretScrubber;
  log: HostLog;
  actor: string;
  /** The workspace's shadow store; default: ShadowStore under the app home. Tests may plug in another. */
  openEngine?: OpenSnapshotEngine;
}

/**
 * What agents changed (docs/changes.md): the service records a snapshot before and after every agent turn (the
 * areas that run agents get it as a TurnRecorder), and the handlers serve the review and the rewind timeline.
 */
export function composeChanges(deps: ChangesDeps): AreaComposition<ChangesService, Handlers<typeof changesContract>> {
  const changes = new ChangesService({
    db: deps.db,
    ledger: deps.ledger,
    sessions: deps.sessions,
    scrubber: deps.scrubber,
    log: deps.log,
    openEngine: deps.openEngine ?? ((workspace) => ShadowStore.open(deps.home, workspace)),
  });
  // Before any turn of this host begins; its snapshots are waited for at dispose.
  void changes.recoverOpenTurns();
  return { service: changes, handlers: createChangesHandlers(changes, deps.actor), dispose: () => changes.dispose() };
}
