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

/** Keychain accounts of one ledger, named by its id (hex of entry 1's hash) so several homes never share a key. */
export const signingKeyAccount = (ledgerId: string): string => `ledger/${ledgerId}/signing-key`;
export const latestCheckpointAccount = (ledgerId: string): string => `ledger/${ledgerId}/latest-checkpoint`;

/** The signing key around an Ed25519 private key (one from the keychain; or a throwaway one, as tests and the bench use). */
export function signingKeyOf(privateKey: KeyObject): LedgerSigningKey {
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return {
    keyId: keyIdOf(publicKey),
    publicKey,
    sign: (message) => sign(null, message, privateKey),
  };
}

/** Loads the ledger's Ed25519 signing key from the keychain, creating and storing one the first time. */
export async function loadOrCreateSigningKey(keychain: Keychain, ledgerId: string): Promise<LedgerSigningKey> {
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
  const { privateKey } = generateKeyPairSync('ed25519');
  await keychain.set(account, new Secret(privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')));
  return signingKeyOf(privateKey);
}

/** Only the public half, for verifying: the same keychain entry, or null when this keychain holds no key for the ledger. */
export async function loadPublicKey(keychain: Keychain, ledgerId: string): Promise<Buffer | null> {
  const stored = await keychain.get(signingKeyAccount(ledgerId));
  if (!stored) return null;
  const privateKey = createPrivateKey({ key: Buffer.from(stored.expose(), 'base64'), format: 'der', type: 'pkcs8' });
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
}

/**
 * The newest checkpoint is also recorded in the keychain, outside the database: someone who deletes the tail of the
 * ledger together with the checkpoints that cover it is still caught, because the keychain remembers how far the
 * ledger had been signed.
 */
export interface LatestCheckpointRecord {
  size: number;
  headHash: string;
  signature: string;
}

export async function recordLatestCheckpoint(keychain: Keychain, ledgerId: string, record: LatestCheckpointRecord): Promise<void> {
  await keychain.set(latestCheckpointAccount(ledgerId), new Secret(JSON.stringify(record)));
}

export async function readLatestCheckpoint(keychain: Keychain, ledgerId: string): Promise<LatestCheckpointRecord | null> {
  const stored = await keychain.get(latestCheckpointAccount(ledgerId));
  if (!stored) return null;
  const value: unknown = JSON.parse(stored.expose());
  const record = value as Partial<LatestCheckpointRecord>;
  if (typeof record?.size !== 'number' || typeof record.headHash !== 'string' || typeof record.signature !== 'string') {
    throw new Error(`the keychain entry ${latestCheckpointAccount(ledgerId)} is not a checkpoint record`);
  }
  return { size: record.size, headHash: record.headHash, signature: record.signature };
}
