import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { electronBinaryExists, projectRoot } from './electronBinary';

/**
 * In Electron mode the host loads native modules built for Electron's ABI from a separate folder; build them
 * once (cached per Electron version) before any spec launches the app. The web build needs nothing.
 */
export default function globalSetup(): void {
  if (!electronBinaryExists()) return;
  const result = spawnSync(process.execPath, [join(projectRoot, 'scripts/electron-native.mjs')], { stdio: 'inherit', cwd: projectRoot });
  if (result.status !== 0) throw new Error('e2e: building native modules for Electron failed (see above); the Electron specs cannot run');
}
