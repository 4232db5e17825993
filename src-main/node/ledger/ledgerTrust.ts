import type { Keychain } from '../vault/keychain';
import { loadPublicKey, readLatestCheckpoint } from './ledgerSigningKey';
import type { CheckpointTrust } from './verifyLedger';

/**
 * What a ledger's checkpoints are checked against on the machine that signed them: the public half of the signing
 * key and the record of the newest checkpoint, both from the keychain. Without a keychain the verdict still checks
 * the chain and the checkpoints' own signatures, and its notes say what could not be checked.
 */
export async function keychainTrust(keychain: Keychain | null, ledgerId: string | null, keychainProblem?: string): Promise<CheckpointTrust> {
  if (!keychain) {
    return {
      publicKey: null,
      source: null,
      notes: [`the keychain could not be asked (${keychainProblem ?? 'not available'}), so signatures were checked only against the key in the ledger`],
    };
  }
  if (!ledgerId) return { publicKey: null, source: null };
  const [publicKey, latest] = await Promise.all([loadPublicKey(keychain, ledgerId), readLatestCheckpoint(keychain, ledgerId)]);
  if (!publicKey) {
    return { publicKey: null, source: null, latest, notes: ['the keychain holds no signing key for this ledger (was it signed on another machine?)'] };
  }
  return { publicKey, source: 'keychain', latest };
}
