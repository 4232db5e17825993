import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readManifest, type ManifestReport } from '../manifest';
import type { AgentRoot, AgentSource } from './agentSource';

/** One agent folder and what its manifest says, valid or not. */
export interface DiscoveredAgent {
  source: AgentSource;
  folder: string;
  report: ManifestReport;
}

/**
 * Every agent folder under the roots, in root order then folder-name order (so results never depend on the file
 * system's listing order). A folder without a usable manifest is still returned, with the report saying why: an
 * agent the user installed must not vanish silently. A root that does not exist has no agents; dot-folders are
 * skipped (editors and VCS put their own folders there).
 */
export function discoverAgents(roots: readonly AgentRoot[]): DiscoveredAgent[] {
  const found: DiscoveredAgent[] = [];
  for (const root of roots) {
    let entries: string[];
    try {
      entries = readdirSync(root.dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      // An unreadable root (permissions) must not stop the host, nor hide that its agents are missing.
      found.push({ source: root.source, folder: root.dir, report: unreadableRoot(root.dir, code ?? (error as Error).message) });
      continue;
    }
    const names = entries.filter((name) => !name.startsWith('.'));
    for (const name of names.sort()) {
      const folder = resolve(join(root.dir, name));
      // Follows symlinks: a linked agent folder (a developer's checkout) counts; stray files do not.
      if (!isDirectory(folder)) continue;
      found.push({ source: root.source, folder, report: readManifest(folder) });
    }
  }
  return found;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function unreadableRoot(dir: string, code: string): ManifestReport {
  return {
    folder: dir,
    file: dir,
    sha256: null,
    manifest: null,
    issues: [{ severity: 'error', code: 'file_unreadable', file: dir, key: null, line: null, column: null, expected: 'a readable folder of agents', found: `a folder that cannot be listed (${code})`, fix: 'check the folder and its permissions' }],
  };
}
