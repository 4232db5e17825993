import type { sessionContract } from '../../../src-preload/contract/sessions';
import type { Handlers } from '../../../src-preload/rpc';
import type { AreaComposition } from '../base/areaComposition';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import type { SecretScrubber } from '../vault/secretScrubber';
import { createSessionHandlers } from './sessionHandlers';
import { SessionService } from './sessionService';

export interface SessionsDeps {
  db: Database;
  ledger: Ledger;
  scrubber: SecretScrubber;
  actor: string;
}

/** Sessions on workspace folders; the parts that run things in a session listen to `onDidClose`. */
export function composeSessions({ db, ledger, scrubber, actor }: SessionsDeps): AreaComposition<SessionService, Handlers<typeof sessionContract>> {
  const sessions = new SessionService(db, ledger);
  return { service: sessions, handlers: createSessionHandlers(sessions, scrubber, actor), dispose: () => sessions.dispose() };
}
