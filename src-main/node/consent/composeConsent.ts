import type { AreaComposition } from '../base/areaComposition';
import type { HostLog } from '../base/hostLog';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { ConsentEngine } from './consentEngine';
import { createConsentHandlers } from './consentHandlers';
import { UiConsentChannel } from './uiConsentChannel';

export interface ConsentDeps {
  db: Database;
  ledger: Ledger;
  log: HostLog;
  actor: string;
  /** How long a prompt on screen waits for an answer (promptTimeoutSetting.ts). */
  promptTimeoutMs: number;
}

/**
 * Grants, checks at every use, prompts through the UI's consent cards, expiry and revocation. Disposing denies (and
 * records) the prompts still waiting; grants stay in the database for the next run.
 */
export function composeConsent({ db, ledger, log, actor, promptTimeoutMs }: ConsentDeps): AreaComposition<ConsentEngine, ReturnType<typeof createConsentHandlers>> & { cards: UiConsentChannel } {
  const consent = new ConsentEngine(db, ledger, { promptTimeoutMs, onError: (error) => log.error('consent:', error) });
  const cards = new UiConsentChannel();
  const attached = consent.attachChannel(cards);
  return {
    service: consent,
    handlers: createConsentHandlers(consent, cards, actor),
    /** The UI's consent cards: who watches a session's (askers that wait for the user use whenWatched). */
    cards,
    dispose() {
      consent.dispose();
      attached.dispose();
    },
  };
}
