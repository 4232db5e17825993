import type { ledgerContract } from '../../../src-preload/contract/ledger';
import type { Handlers } from '../../../src-preload/rpc';
import type { AreaComposition } from '../base/areaComposition';
import type { HostLog } from '../base/hostLog';
import { databasePath } from '../home';
import type { Database } from '../store/database';
import type { HostKeychain, KeychainChoice } from '../vault/hostKeychain';
import type { SecretScrubber } from '../vault/secretScrubber';
import { Ledger } from './ledger';
import { createLedgerHandlers } from './ledgerHandlers';
import { LedgerQuery } from './ledgerQuery';
import { startLedgerSigning } from './ledgerSigning';

export interface LedgerDeps {
  home: string;
  version: string;
  db: Database;
  keychain: Promise<HostKeychain>;
  keychainChoice: KeychainChoice;
  scrubber: SecretScrubber;
  log: HostLog;
}

/**
 * The ledger of the home: opened, its run bracketed by host.start and host.stop, checkpoints signed once the keychain
 * vouches for it. Secrets never reach it: the scrubber takes registered values (and anything shaped like a token) out
 * of every payload at ingest, before the hash chain commits to it.
 */
export function composeLedger(deps: LedgerDeps): AreaComposition<Ledger, Handlers<typeof ledgerContract>> {
  const { db, scrubber, log } = deps;
  const databaseFile = databasePath(deps.home);
  const ledger = new Ledger(db, { scrub: (payload) => scrubber.scrubPayload(payload), onError: (error) => log.error('ledger:', error) });
  ledger.append({ type: 'host.start', actor: 'host', payload: { version: deps.version, pid: process.pid } });
  const signing = startLedgerSigning(ledger, databaseFile, deps.keychain, deps.keychainChoice, log);
  return {
    service: ledger,
    handlers: createLedgerHandlers({ home: deps.home, databaseFile, ledger, query: new LedgerQuery(db), keychain: deps.keychain, signing, log }),
    async dispose() {
      ledger.append({ type: 'host.stop', actor: 'host', payload: { pid: process.pid } });
      await signing;
      await ledger.close();
    },
  };
}
