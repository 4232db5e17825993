import type { Keychain } from '../vault/keychain';
import { readFileRecord, readLegacyRecord, readSiblingRecords } from './ledgerRecord';
import { loadPublicKey } from './ledgerSigningKey';
import type { CheckpointTrust } from './verifyLedger';

/**
 * What a ledger file's checkpoints are checked against on the machine that signed them: the public half of the
 * signing key, this file's record of its newest checkpoint, and the records of other files holding the same ledger
 * (copies), all from the keychain. The record is consulted whatever the file holds, checkpoints or none, entries or
 * none: a file stripped of its checkpoints, cut, emptied or swapped for another ledger still has a record to fail.
 * Without a keychain the verdict checks the chain and the checkpoints' own signatures, and its notes say what could
 * not be checked.
 */
export async function keychainTrust(
  keychain: Keychain | null,
  ledger: { file: string; ledgerId: string | null },
  keychainProblem?: string,
): Promise<CheckpointTrust> {
  if (!keychain) {
    return {
      publicKey: null,
      source: null,
      notes: [`the keychain could not be asked (${keychainProblem ?? 'not available'}), so signatures were checked only against the key in the ledger and nothing against the keychain's record`],
    };
  }
  const { file, ledgerId } = ledger;
  const own = await readFileRecord(keychain, file);
  if (!ledgerId) return { publicKey: null, source: null, record: own, siblings: [] };
  const [publicKey, siblings, legacy] = await Promise.all([
    loadPublicKey(keychain, ledgerId),
    readSiblingRecords(keychain, ledgerId, file),
    own ? Promise.resolve(null) : readLegacyRecord(keychain, ledgerId, file),
  ]);
  const record = own ?? legacy;
  if (!publicKey) {
    return { publicKey: null, source: null, record, siblings, notes: ['the keychain holds no signing key for this ledger (was it signed on another machine?)'] };
  }
  return { publicKey, source: 'keychain', record, siblings };
}
