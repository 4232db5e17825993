import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { Keychain } from '../vault/keychain';
import { Secret } from '../vault/secret';
import { keyIdOf } from './checkpoint';

/**
 * The key that signs a ledger's checkpoints. The private half lives only in the OS keychain and, once loaded, in a
 * KeyObject (never as text in memory the host could log); the public half is written beside every checkpoint.
 */
export interface LedgerSigningKey {
  readonly keyId: string;
  /** SPKI DER. */
  readonly publicKey: Buffer;
  sign(message: Buffer): Buffer;
}

/**
 * The keychain account of a ledger's key, named by its id (hex of entry 1's hash): copies of one ledger share it, so
 * a copy's checkpoints verify; how far each copy was signed is recorded per file (ledgerRecord.ts).
 */
export const signingKeyAccount = (ledgerId: string): string => `ledger/${ledgerId}/signing-key`;

/** The signing key around an Ed25519 private key (one from the keychain; or a throwaway one, as tests and the bench use). */
export function signingKeyOf(privateKey: KeyObject): LedgerSigningKey {
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return {
    keyId: keyIdOf(publicKey),
    publicKey,
    sign: (message) => sign(null, message, privateKey),
  };
}

/** The ledger's Ed25519 signing key from the keychain, or null when the keychain holds none for it. */
export async function loadSigningKey(keychain: Keychain, ledgerId: string): Promise<LedgerSigningKey | null> {
  const account = signingKeyAccount(ledgerId);
  const stored = await keychain.get(account);
  if (stored) {
    try {
      return signingKeyOf(createPrivateKey({ key: Buffer.from(stored.expose(), 'base64'), format: 'der', type: 'pkcs8' }));
    } catch (error) {
      // Never replace it silently: a new key would make every earlier checkpoint look forged.
      throw new Error(
        `the ledger signing key in the keychain (${account}) is not a valid Ed25519 key; restore it from a backup of the keychain, or delete that entry to start signing with a new key (earlier checkpoints then verify only with --key)`,
        { cause: error },
      );
    }
  }
  return null;
}

/** Loads the ledger's Ed25519 signing key from the keychain, creating and storing one the first time. */
export async function loadOrCreateSigningKey(keychain: Keychain, ledgerId: string): Promise<LedgerSigningKey> {
  const existing = await loadSigningKey(keychain, ledgerId);
  if (existing) return existing;
  const { privateKey } = generateKeyPairSync('ed25519');
  await keychain.set(signingKeyAccount(ledgerId), new Secret(privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')));
  return signingKeyOf(privateKey);
}

/** Only the public half, for verifying: the same keychain entry, or null when this keychain holds no key for the ledger. */
export async function loadPublicKey(keychain: Keychain, ledgerId: string): Promise<Buffer | null> {
  const stored = await keychain.get(signingKeyAccount(ledgerId));
  if (!stored) return null;
  const privateKey = createPrivateKey({ key: Buffer.from(stored.expose(), 'base64'), format: 'der', type: 'pkcs8' });
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
}
