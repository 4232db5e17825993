import type { HostKeychain, KeychainChoice } from '../vault/hostKeychain';
import type { HostLog } from '../base/hostLog';
import type { Ledger } from './ledger';
import { decideSigning } from './signingGate';

/**
 * Starts signing checkpoints once the keychain answers (it may be slow or absent: the host serves meanwhile), and
 * only if the ledger verifies against its keychain record; the first checkpoint then covers whatever the previous
 * run left unsigned. Never rejects: why signing is off goes to the log.
 */
export async function startLedgerSigning(ledger: Ledger, databaseFile: string, keychain: Promise<HostKeychain>, choice: KeychainChoice, log: HostLog): Promise<void> {
  const { keychain: store, problem } = await keychain;
  if (!store) {
    if (choice !== 'off') log.error(`ledger checkpoints are not signed: ${problem}`);
    return;
  }
  try {
    ledger.flush();
    const decision = await decideSigning(store, databaseFile, ledger.ledgerId!);
    if (!decision.sign) return log.error(decision.why);
    if (decision.notice) log.error(decision.notice);
    ledger.startSigning(decision.key, decision.record);
  } catch (error) {
    log.error('ledger checkpoints are not signed:', error);
  }
}
