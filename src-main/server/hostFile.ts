import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Which host wrote host.json: a second host started on the same home names it in its error (node/homeLock.ts). */
export type HostKind = 'omni serve' | 'desktop app';

/**
 * `<home>/host.json`: where `omni` commands and scripts find the running host of a home (its port and connection
 * token), readable by the user only. Removed when the host stops; src-main/cli/runningHost.ts reads it.
 */
export function writeHostFile(home: string, port: number, token: string, kind: HostKind): () => void {
  const file = join(home, 'host.json');
  writeFileSync(file, JSON.stringify({ url: `http://127.0.0.1:${port}`, port, token, pid: process.pid, kind }), { mode: 0o600 });
  chmodSync(file, 0o600);
  return () => rmSync(file, { force: true });
}
