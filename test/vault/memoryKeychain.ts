import type { Keychain } from '../../src-main/node/vault/keychain';
import type { Secret } from '../../src-main/node/vault/secret';

/** For tests where the keychain is not what is tested: a map stands in for it (the real one is tested in test/vault). */
export function memoryKeychain(): Keychain {
  const items = new Map<string, Secret<string>>();
  return {
    backend: 'test-memory',
    get: async (account) => items.get(account) ?? null,
    set: async (account, value) => void items.set(account, value),
    delete: async (account) => items.delete(account),
  };
}
