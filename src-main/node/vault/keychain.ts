import type { Secret } from './secret';

/** The service every Omniscient Shell secret is filed under in the OS keychain; accounts name the secret. */
export const KEYCHAIN_SERVICE = 'omniscient-shell';

/**
 * The OS keychain: the only place secrets are stored (DESIGN.md). Values cross this interface wrapped in
 * `Secret`, so a secret read here cannot end up in a log line or an event by accident.
 */
export interface Keychain {
  /** Which keychain answers, e.g. `keytar/secret-service`; for diagnostics, never a secret. */
  readonly backend: string;
  /** The secret stored for `account`, or null when there is none. */
  get(account: string): Promise<Secret<string> | null>;
  /** Stores (or replaces) the secret for `account`. */
  set(account: string, value: Secret<string>): Promise<void>;
  /** Removes the secret for `account`; false when there was none. */
  delete(account: string): Promise<boolean>;
}

/**
 * Why the keychain could not be used. There is deliberately no fallback store: the caller reports this to the
 * user (the message says what failed and how to fix it) and the feature that needed the secret stays off.
 */
export type KeychainFailure =
  | 'module' // the native keychain module did not load
  | 'no-bus' // Linux: no D-Bus session bus to reach a Secret Service through
  | 'no-service' // Linux: a bus, but nothing on it provides org.freedesktop.secrets
  | 'locked' // the keychain exists but is locked, or refused to unlock
  | 'timeout' // the keychain did not answer in time (keytar can hang without a working session)
  | 'failed'; // anything else the keychain reported

export class KeychainUnavailableError extends Error {
  constructor(
    readonly backend: string,
    readonly failure: KeychainFailure,
    /** What went wrong, in words. */
    readonly what: string,
    /** What the user can do about it. */
    readonly fix: string,
    options?: { cause?: unknown },
  ) {
    super(`OS keychain unavailable (${backend}): ${what}. ${fix}`, options);
    this.name = 'KeychainUnavailableError';
  }
}
