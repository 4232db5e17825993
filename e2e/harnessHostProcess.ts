import { join } from 'node:path';
import type { HostProcess } from './hostProcess';
import { startInPrivateKeyring } from './privateKeyringHost';

const root = join(__dirname, '..');

/**
 * The harness e2e host (harnessHostMain.ts) with a real OS keychain (startInPrivateKeyring): a second start with the
 * same `userHome` finds the same keyring, so a restart keeps the connection. `env` adds variables (the CLI paths).
 * Stop it with stopPrivateKeyringHost.
 */
export function startHarnessHost(port: number, home: string, userHome: string, anthropicOrigin: string, env: Record<string, string>, timeoutMs = 30_000): Promise<HostProcess> {
  return startInPrivateKeyring(['--import', 'tsx', join(root, 'e2e/harnessHostMain.ts'), String(port), home, anthropicOrigin], home, userHome, env, timeoutMs);
}
