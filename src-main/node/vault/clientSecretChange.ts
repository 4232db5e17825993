import type { CredentialVault } from './credentialVault';
import { Secret } from './secret';
import { VaultUnavailableError } from './vaultErrors';

/**
 * An OAuth client's secret as a save asks: a new one stored, the stored one removed, or left as it is. The keychain
 * goes first, so no row claims a secret the keychain does not hold. Resolves with whether one is stored now.
 */
export async function changeClientSecret(
  vault: Pick<CredentialVault, 'ready' | 'available' | 'problem' | 'storeClientSecret' | 'deleteClientSecret'>,
  account: string,
  request: { clientSecret?: string; removeClientSecret?: boolean },
  hadSecret: boolean,
): Promise<boolean> {
  const secret = request.clientSecret?.trim();
  if (!secret && !request.removeClientSecret) return hadSecret;
  await vault.ready;
  if (!vault.available) throw new VaultUnavailableError(vault.problem ?? 'no keychain is available');
  if (secret) {
    await vault.storeClientSecret(account, new Secret(secret));
    return true;
  }
  if (hadSecret) await vault.deleteClientSecret(account);
  return false;
}
