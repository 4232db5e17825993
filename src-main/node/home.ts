import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The app home: an explicit choice, else $OMNI_HOME, else Electron's userData, else ~/.omniscient-shell. */
export function resolveHome(explicit?: string, electronUserData?: string): string {
  const chosen = explicit ?? process.env.OMNI_HOME ?? electronUserData ?? join(homedir(), '.omniscient-shell');
  const home = resolve(chosen);
  mkdirSync(join(home, 'memory'), { recursive: true, mode: 0o700 });
  return home;
}

export function databasePath(home: string): string {
  return join(home, 'memory', 'sessions.db');
}

/**
 * The native sandbox's per-run directories (seccomp program, proxy socket, staged writes on their way into the
 * workspace): under the home, so they are hidden from every run like the rest of it, and swept at the next start
 * when a crash left some behind. Nothing but the sandbox writes here.
 */
export function stagingPath(home: string): string {
  return join(home, 'staging');
}
