import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Written by scripts/electron-native.mjs once a build has been verified; same name there. */
export const NATIVE_BUILD_MARKER = 'omni-electron-native.json';

export interface NativeModulesContext {
  /** The project folder, which holds .cache/ (not consulted in a packaged app). */
  readonly appPath: string;
  readonly isPackaged: boolean;
  readonly electronVersion: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Where the host process loads better-sqlite3, node-pty and keytar from (passed on as OMNI_NATIVE_MODULES_DIR).
 *
 * - An explicit OMNI_NATIVE_MODULES_DIR wins.
 * - Packaged: undefined. The packaged app.asar.unpacked already holds Electron builds (electron-builder's
 *   afterPack hook copies them there), so the host's ordinary `require` finds the right ones.
 * - Development: `.cache/electron-native/<electron version>` in the project, built by `npm start` through
 *   scripts/electron-native.mjs. The project's node_modules keeps its Node builds for the tests and the CLI.
 *   Undefined when that build does not exist yet; the host then fails with an ABI error the main process shows.
 */
export function electronNativeModulesDir(context: NativeModulesContext, exists: (path: string) => boolean = existsSync): string | undefined {
  const explicit = context.env.OMNI_NATIVE_MODULES_DIR;
  if (explicit) return explicit;
  if (context.isPackaged) return undefined;
  const dir = join(context.appPath, '.cache', 'electron-native', context.electronVersion);
  return exists(join(dir, NATIVE_BUILD_MARKER)) ? dir : undefined;
}
