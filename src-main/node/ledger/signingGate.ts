import { describeLedgerVerdict } from '../../../src-preload/contract';
import type { Keychain } from '../vault/keychain';
import type { CheckpointRecordTarget } from './checkpointWriter';
import { ledgerFileIdentity } from './ledgerRecord';
import { loadOrCreateSigningKey, type LedgerSigningKey } from './ledgerSigningKey';
import { keychainTrust } from './ledgerTrust';
import { verifyStoredLedger } from './verifyStoredLedger';

export type SigningDecision =
  | { sign: true; key: LedgerSigningKey; record: CheckpointRecordTarget; notice?: string }
  | { sign: false; why: string };

/**
 * Whether the host may sign checkpoints over the ledger in `file` (the database it writes, `ledgerId` its first
 * entry's hash). A checkpoint signs the whole chain before it, so signing a forged chain would launder the forgery
 * and move the keychain's record onto it: the host signs only when the ledger verifies against its keychain record
 * (it holds the recorded head at the recorded size, its chain and checkpoints are sound) and the keychain holds the
 * key its checkpoints were signed with. A copy of another file's ledger that agrees with it signs as a fork, with a
 * record of its own, so the copies never move each other's records.
 */
export async function decideSigning(keychain: Keychain, file: string, ledgerId: string): Promise<SigningDecision> {
  const identity = ledgerFileIdentity(file);
  const trust = await keychainTrust(keychain, { file: identity, ledgerId });
  const verdict = await verifyStoredLedger(file, trust);
  const refuse = (what: string): SigningDecision => ({
    sign: false,
    why: `ledger checkpoints are NOT signed: ${what}. Nothing is signed and the keychain's record is not moved until this is resolved; \`omni ledger verify\` shows the same verdict`,
  });
  if (!verdict.intact) return refuse(`the ledger does not match its keychain record (${describeLedgerVerdict(verdict)})`);
  if (verdict.checkpoint && verdict.checkpoint.keySource !== 'keychain') {
    return refuse(`its checkpoints were signed with key ${verdict.checkpoint.keyId}, which this keychain does not hold (was the home moved from another machine?); a new key would make them look forged`);
  }
  const key = await loadOrCreateSigningKey(keychain, ledgerId);
  const sibling = trust.siblings?.[0];
  if (!trust.record && sibling) {
    return {
      sign: true,
      key,
      record: { keychain, file: identity, forkOf: { file: sibling.file, size: sibling.size } },
      notice: `this home's ledger is a copy of the one at ${sibling.file} (signed there up to seq ${sibling.size}): from now on it is signed as a fork with a keychain record of its own, so neither copy can make the other look tampered`,
    };
  }
  return { sign: true, key, record: { keychain, file: identity, ...(trust.record?.forkOf ? { forkOf: trust.record.forkOf } : {}) } };
}
