import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where a home keeps the user's agents: one folder per agent, each with its manifest.toml. */
export function userAgentsDir(home: string): string {
  return join(home, 'agents');
}

/**
 * The bundled agents (assets/agents, built by scripts/build-agents.mjs). The code asking may run from its source
 * (src-main/node/agents/registry, four levels below the root) or from a bundle (dist/cli, dist/electron: two
 * levels below): the first of those places that exists.
 */
export function bundledAgentsDir(): string {
  const candidates = [join(__dirname, '..', '..', 'assets', 'agents'), join(__dirname, '..', '..', '..', '..', 'assets', 'agents')];
  return candidates.find((dir) => existsSync(dir)) ?? candidates[candidates.length - 1];
}
