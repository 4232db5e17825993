import type * as KeytarModule from 'keytar';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadNative } from '../base/native';
import { KEYCHAIN_SERVICE, KeychainUnavailableError, type Keychain, type KeychainFailure } from './keychain';
import { Secret } from './secret';

type Keytar = Pick<typeof KeytarModule, 'getPassword' | 'setPassword' | 'deletePassword'>;

export interface OpenKeychainOptions {
  /**
   * Bound on the whole opening probe. keytar blocks inside libsecret/GDBus, and without a working session bus
   * (or with a Secret Service that never answers) that can take minutes; the app must say so quickly instead.
   */
  probeTimeoutMs?: number;
  /** Bound on each later get / set / delete; longer, since the OS may show an unlock prompt the user answers. */
  operationTimeoutMs?: number;
}

const DEFAULT_PROBE_TIMEOUT_MS = 3_000;
const DEFAULT_OPERATION_TIMEOUT_MS = 30_000;

/**
 * Opens the OS keychain through keytar (libsecret's Secret Service on Linux, Keychain on macOS, Credential Manager
 * on Windows) and proves it works before returning it: one probe writes, reads back and deletes a random value under
 * a unique probe account. A read alone is not enough, because a locked Secret Service keyring answers a lookup with
 * "nothing stored" and only fails on the first write.
 *
 * Rejects with KeychainUnavailableError when the keychain cannot be reached, is locked, or does not answer within
 * the bound. There is no plaintext fallback: without a keychain, nothing secret is stored anywhere.
 */
export async function openKeychain(options: OpenKeychainOptions = {}): Promise<Keychain> {
  const backend = backendName();
  const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  let keytar: Keytar;
  try {
    keytar = loadNative<Keytar>('keytar');
  } catch (error) {
    throw unavailable(backend, 'module', `the native module keytar did not load (${messageOf(error)})`, error);
  }
  await bounded(probe(keytar), probeTimeoutMs, backend, 'opening probe');
  return new KeytarKeychain(keytar, backend, options.operationTimeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS);
}

async function probe(keytar: Keytar): Promise<void> {
  // Unique per call so two processes probing at once never delete each other's probe.
  const account = `.probe/${process.pid}/${randomUUID()}`;
  const value = randomBytes(16).toString('hex');
  await keytar.getPassword(KEYCHAIN_SERVICE, account); // reachability: bus and service
  await keytar.setPassword(KEYCHAIN_SERVICE, account, value); // a locked keyring fails here
  const readBack = await keytar.getPassword(KEYCHAIN_SERVICE, account);
  await keytar.deletePassword(KEYCHAIN_SERVICE, account);
  if (readBack !== value) throw new Error('the keychain did not return the probe value it had just stored');
}

class KeytarKeychain implements Keychain {
  constructor(
    private readonly keytar: Keytar,
    readonly backend: string,
    private readonly timeoutMs: number,
  ) {}

  async get(account: string): Promise<Secret<string> | null> {
    checkAccount(account);
    const value = await bounded(this.keytar.getPassword(KEYCHAIN_SERVICE, account), this.timeoutMs, this.backend, 'get');
    return value === null ? null : new Secret(value);
  }

  async set(account: string, value: Secret<string>): Promise<void> {
    checkAccount(account);
    if (!(value instanceof Secret)) throw new TypeError('keychain.set takes the value wrapped in a Secret');
    const exposed = value.expose();
    // keytar refuses an empty password; say why here rather than surface its bare "Password is required."
    if (typeof exposed !== 'string' || exposed.length === 0) throw new TypeError('keychain.set: an empty secret cannot be stored; delete the account instead');
    await bounded(this.keytar.setPassword(KEYCHAIN_SERVICE, account, exposed), this.timeoutMs, this.backend, 'set');
  }

  async delete(account: string): Promise<boolean> {
    checkAccount(account);
    return bounded(this.keytar.deletePassword(KEYCHAIN_SERVICE, account), this.timeoutMs, this.backend, 'delete');
  }
}

function checkAccount(account: string): void {
  if (typeof account !== 'string' || account.length === 0) throw new TypeError('keychain: the account name must be a non-empty string');
}

/**
 * Settles with `work`, or rejects with KeychainUnavailableError after `ms`. A keytar call that hangs cannot be
 * cancelled (it blocks a libuv worker thread); its late result is ignored, and Promise.race keeps its late
 * rejection handled. Beware: Node's exit joins those worker threads, so while such a call is stuck,
 * process.exit() hangs too (seen with a bus socket that never answers); only a signal ends the process then.
 */
async function bounded<T>(work: Promise<T>, ms: number, backend: string, step: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable(backend, 'timeout', `the ${step} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (error) {
    if (error instanceof KeychainUnavailableError) throw error;
    throw unavailable(backend, classify(error), `the ${step} failed (${messageOf(error)})`, error);
  } finally {
    clearTimeout(timer);
  }
}

function backendName(): string {
  switch (process.platform) {
    case 'darwin':
      return 'keytar/macos-keychain';
    case 'win32':
      return 'keytar/windows-credential-manager';
    default:
      return 'keytar/secret-service';
  }
}

/** Sorts the backend's own error text into a failure the user can act on. The patterns are libsecret/GDBus and Security.framework messages. */
function classify(error: unknown): KeychainFailure {
  const text = messageOf(error);
  if (/autolaunch|could not connect|failed to connect|DBUS_SESSION_BUS_ADDRESS|connection refused|cannot spawn a message bus/i.test(text)) return 'no-bus';
  if (/org\.freedesktop\.secrets|ServiceUnknown|NameHasNoOwner|not provided by any \.service files/i.test(text)) return 'no-service';
  if (/locked|unlock|collection|prompt|dismissed|cancel|interaction is not allowed|passphrase/i.test(text)) return 'locked';
  return 'failed';
}

function unavailable(backend: string, failure: KeychainFailure, what: string, cause?: unknown): KeychainUnavailableError {
  const fix = FIXES[process.platform]?.[failure] ?? (failure === 'module' ? FIX_MODULE_GENERIC : FIX_GENERIC);
  const lead = LEADS[process.platform]?.[failure];
  return new KeychainUnavailableError(backend, failure, lead ? `${lead}: ${what}` : what, fix, cause === undefined ? undefined : { cause });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const FIX_MODULE_GENERIC = 'Reinstall the app; developers: `npm rebuild keytar`.';
const FIX_GENERIC = 'Check that the OS keychain is available and unlocked, then retry.';

/** What each failure means on Linux, where the keychain is a separate service the machine may lack. */
const LEADS: Partial<Record<NodeJS.Platform, Partial<Record<KeychainFailure, string>>>> = {
  linux: {
    'no-bus': 'no D-Bus session bus to reach a Secret Service through',
    'no-service': 'no Secret Service on the D-Bus session bus',
    locked: 'the Secret Service keyring is locked',
  },
  darwin: { locked: 'the login keychain is locked' },
};

const FIXES: Partial<Record<NodeJS.Platform, Partial<Record<KeychainFailure, string>>>> = {
  linux: {
    module:
      'keytar needs libsecret: install it (Debian/Ubuntu: libsecret-1-0); developers: `npm run setup:system`, then `npm rebuild keytar`.',
    'no-bus':
      'Run the app inside a desktop session, or start one with `dbus-run-session`, and install and unlock gnome-keyring (or KWallet).',
    'no-service': 'Install and unlock gnome-keyring (or KWallet); developers: `npm run setup:system`.',
    locked: 'Unlock it (log in to the desktop session, or `gnome-keyring-daemon --unlock` with the password on stdin) and retry.',
    timeout:
      'Make sure a Secret Service (gnome-keyring or KWallet) is running and unlocked on the D-Bus session bus, answer any unlock prompt, and retry.',
    failed: 'Check that gnome-keyring (or KWallet) is running and unlocked, then retry.',
  },
  darwin: {
    locked: 'Unlock the login keychain (Keychain Access) and retry.',
    timeout: 'Answer any Keychain prompt, make sure the login keychain is unlocked, and retry.',
    failed: 'Check the login keychain in Keychain Access, then retry.',
  },
  win32: {
    timeout: 'Check Windows Credential Manager, then retry.',
    failed: 'Check Windows Credential Manager, then retry.',
  },
};
