import type { Keychain } from './keychain';
import { openKeychain } from './keytarKeychain';

/** 'os': the OS keychain through keytar (the default); 'off': none at all, e.g. for throwaway test homes. */
export type KeychainChoice = 'os' | 'off';

export interface HostKeychain {
  keychain: Keychain | null;
  /** Why there is no keychain, in words the user can act on; null when there is one. */
  problem: string | null;
}

/** The choice from the environment: OMNI_KEYCHAIN=off runs without a keychain (no checkpoint signing, no credentials). */
export function keychainChoiceFromEnv(env: NodeJS.ProcessEnv = process.env): KeychainChoice {
  return env.OMNI_KEYCHAIN === 'off' ? 'off' : 'os';
}

/**
 * Opens the keychain the host works with. Never rejects: without a keychain the host still runs, and the features
 * that need one (signed ledger checkpoints, credentials) say why they are off.
 */
export async function openHostKeychain(choice: KeychainChoice): Promise<HostKeychain> {
  if (choice === 'off') return { keychain: null, problem: 'the keychain is turned off (OMNI_KEYCHAIN=off)' };
  try {
    return { keychain: await openKeychain(), problem: null };
  } catch (error) {
    return { keychain: null, problem: error instanceof Error ? error.message : String(error) };
  }
}
