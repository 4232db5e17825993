import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Loads a native module from the build that matches the running process. Under plain Node that is the project's
 * node_modules; under Electron the shell sets OMNI_NATIVE_MODULES_DIR to a separate folder rebuilt for Electron's
 * ABI, so an Electron rebuild never replaces the Node build the tests use.
 */
export function loadNative<T>(name: 'better-sqlite3' | 'node-pty' | 'keytar'): T {
  const dir = process.env.OMNI_NATIVE_MODULES_DIR;
  const requireFrom = createRequire(dir ? join(dir, 'package.json') : __filename);
  return requireFrom(name) as T;
}
